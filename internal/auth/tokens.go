package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/agendei/agendei/internal/platform/clock"
)

const (
	// AccessTTL is how long an access token lives: short, because it is not
	// revocable; the refresh token is.
	AccessTTL = 15 * time.Minute
	// RefreshTTL is how long a sign-in lasts without use.
	RefreshTTL = 30 * 24 * time.Hour
	// RecoveryTTL is how long an e-mailed recovery link works.
	RecoveryTTL = time.Hour
	issuer      = "agendei"
)

type tokenSigner struct {
	key   []byte
	clock clock.Clock
}

func (s *tokenSigner) issue(userID string) (token string, expires time.Time, err error) {
	now := s.clock.Now()
	expires = now.Add(AccessTTL)
	claims := jwt.RegisteredClaims{
		Issuer:    issuer,
		Subject:   userID,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(expires),
	}
	token, err = jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
	return token, expires, err
}

var errBadToken = errors.New("invalid access token")

func (s *tokenSigner) verify(token string) (userID string, err error) {
	var claims jwt.RegisteredClaims
	_, err = jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.clock.Now),
	)
	if err != nil || claims.Subject == "" {
		return "", errBadToken
	}
	return claims.Subject, nil
}

// opaqueToken returns a random URL-safe token and the hash we store of it:
// the database never holds a usable refresh or recovery token.
func opaqueToken() (token, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

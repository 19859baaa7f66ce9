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
	// AccessTTL is how long an access token lives. It is revocable anyway:
	// every owner request checks its session (sessions.go).
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

// accessClaims are an access token's claims: besides who and until when,
// the sign-in it belongs to (sid: the refresh family) and the account's
// session generation when it was issued (gen), which RequireUser compares
// with the database so that a revoked session ends at once.
//
// A professional's sign-in (issue 43 §0) also names the practice it works
// in (own: the owner's id) and the professional it is (pro): every owner
// route then keeps its tenancy check on the owner's id, and the routes a
// professional may use scope what they read and write to that professional.
type accessClaims struct {
	jwt.RegisteredClaims
	SID string `json:"sid"`
	Gen int64  `json:"gen"`
	Own string `json:"own,omitempty"`
	Pro string `json:"pro,omitempty"`
}

// accessToken is what a verified access token says.
type accessToken struct {
	UserID string // the account that signed in
	Family string
	Gen    int64
	// OwnerID and ProfessionalID are set for a professional's sign-in: the
	// practice's owner and the professional of the team the account is.
	OwnerID, ProfessionalID string
}

// owner is the practice the token acts in: its own account, or for a
// professional the owner's.
func (t accessToken) owner() string {
	if t.OwnerID != "" {
		return t.OwnerID
	}
	return t.UserID
}

func (s *tokenSigner) issue(userID, family string, gen int64) (token string, expires time.Time, err error) {
	return s.issueFor(accessToken{UserID: userID, Family: family, Gen: gen})
}

func (s *tokenSigner) issueFor(t accessToken) (token string, expires time.Time, err error) {
	userID, family, gen := t.UserID, t.Family, t.Gen
	now := s.clock.Now()
	expires = now.Add(AccessTTL)
	claims := accessClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   userID,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(expires),
		},
		SID: family,
		Gen: gen,
		Own: t.OwnerID,
		Pro: t.ProfessionalID,
	}
	token, err = jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
	return token, expires, err
}

var errBadToken = errors.New("invalid access token")

// verify checks the signature, issuer and expiry. A token without a sign-in
// (issued before sessions were checked) is refused: the app refreshes it.
// Every token is checked in full: a cache of verified tokens measured
// 1.16–1.24× on owners' reads, within the bench's noise (issue 40,
// docs/decisions/0009-small-mechanisms.md), and went.
func (s *tokenSigner) verify(token string) (accessToken, error) {
	tok, _, err := s.parse(token)
	return tok, err
}

// parse checks a token in full: signature, algorithm, issuer and expiry.
func (s *tokenSigner) parse(token string) (accessToken, time.Time, error) {
	var claims accessClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.clock.Now),
	)
	if err != nil || claims.Subject == "" || claims.SID == "" || claims.ExpiresAt == nil || (claims.Own == "") != (claims.Pro == "") {
		return accessToken{}, time.Time{}, errBadToken
	}
	return accessToken{UserID: claims.Subject, Family: claims.SID, Gen: claims.Gen, OwnerID: claims.Own, ProfessionalID: claims.Pro}, claims.ExpiresAt.Time, nil
}

// OpaqueToken returns a random URL-safe token (32 bytes) and the hash we
// store of it: the database never holds a usable refresh token, recovery
// link or client's cancel link.
func OpaqueToken() (token, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken is how an opaque token is stored and looked up.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
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

	// verified keeps what tokens this process verified say, until each
	// expires (token text → verifiedToken): a tab sends its access token
	// with every request, and parsing and checking it again (JSON claims,
	// HMAC) was a tenth of a cached owner read. Only the very text that
	// passed is found, so a changed token is checked in full; at most
	// maxVerified are kept, then the map starts over.
	verified    sync.Map
	verifiedLen atomic.Int64
}

type verifiedToken struct {
	tok     accessToken
	expires time.Time
}

const maxVerified = 10_000

// TokenCacheOff turns the verified tokens' cache (tokenSigner's verified)
// off: a benchmark switch (AGENDEI_BENCH_DISABLE=token-cache) measuring
// what it pays, never set in production.
var TokenCacheOff atomic.Bool

// accessClaims are an access token's claims: besides who and until when,
// the sign-in it belongs to (sid: the refresh family) and the account's
// session generation when it was issued (gen), which RequireUser compares
// with the database so that a revoked session ends at once.
type accessClaims struct {
	jwt.RegisteredClaims
	SID string `json:"sid"`
	Gen int64  `json:"gen"`
}

// accessToken is what a verified access token says.
type accessToken struct {
	UserID string
	Family string
	Gen    int64
}

func (s *tokenSigner) issue(userID, family string, gen int64) (token string, expires time.Time, err error) {
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
	}
	token, err = jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
	return token, expires, err
}

var errBadToken = errors.New("invalid access token")

// verify checks the signature, issuer and expiry. A token without a sign-in
// (issued before sessions were checked) is refused: the app refreshes it.
func (s *tokenSigner) verify(token string) (accessToken, error) {
	if TokenCacheOff.Load() {
		tok, _, err := s.parse(token) // the plain path: every token checked in full
		return tok, err
	}
	if v, ok := s.verified.Load(token); ok {
		if v := v.(verifiedToken); s.clock.Now().Before(v.expires) {
			return v.tok, nil
		}
		s.verified.Delete(token)
	}
	tok, expires, err := s.parse(token)
	if err != nil {
		return accessToken{}, err
	}
	if s.verifiedLen.Add(1) > maxVerified {
		s.verified.Clear()
		s.verifiedLen.Store(1)
	}
	s.verified.Store(token, verifiedToken{tok: tok, expires: expires})
	return tok, nil
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
	if err != nil || claims.Subject == "" || claims.SID == "" || claims.ExpiresAt == nil {
		return accessToken{}, time.Time{}, errBadToken
	}
	return accessToken{UserID: claims.Subject, Family: claims.SID, Gen: claims.Gen}, claims.ExpiresAt.Time, nil
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

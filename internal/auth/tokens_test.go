package auth

import (
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
)

// A token verified once is known again without being parsed, but only
// until it expires and only as the very text that passed: a token with one
// character changed, signed with another key, or past its expiry is
// refused every time, however often its neighbour was let through.
func TestVerify_KnowsAVerifiedTokenOnlyUntilItExpires(t *testing.T) {
	c := clock.NewManual(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	s := &tokenSigner{key: []byte("0123456789abcdef0123456789abcdef"), clock: c}
	token, _, err := s.issue("user-1", "family-1", 3)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		tok, err := s.verify(token)
		if err != nil || tok != (accessToken{UserID: "user-1", Family: "family-1", Gen: 3}) {
			t.Fatalf("verify: %+v %v", tok, err)
		}
	}
	tampered := token[:len(token)-2] + map[bool]string{true: "AA", false: "BB"}[token[len(token)-2:] != "AA"]
	other := &tokenSigner{key: []byte("another key, another key, anoth"), clock: c}
	forged, _, err := other.issue("user-1", "family-1", 3)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		for name, bad := range map[string]string{"tampered": tampered, "another key": forged} {
			if _, err := s.verify(bad); err == nil {
				t.Fatalf("%s token accepted", name)
			}
		}
	}
	c.Advance(AccessTTL - time.Second)
	if _, err := s.verify(token); err != nil {
		t.Fatalf("a second before expiry: %v", err)
	}
	c.Advance(time.Second)
	for range 2 {
		if _, err := s.verify(token); err == nil {
			t.Fatal("an expired token accepted")
		}
	}
}

// The map of verified tokens stays bounded: past maxVerified it starts
// over, and every token still verifies.
func TestVerify_KeepsAtMostMaxVerified(t *testing.T) {
	c := clock.NewManual(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	s := &tokenSigner{key: []byte("0123456789abcdef0123456789abcdef"), clock: c}
	var tokens []string
	for i := range maxVerified + 10 {
		token, _, err := s.issue("user", string(rune('a'+i%26))+time.Duration(i).String(), 1)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, token)
		if _, err := s.verify(token); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.verifiedLen.Load(); n > maxVerified {
		t.Fatalf("%d kept, at most %d", n, maxVerified)
	}
	n := 0
	s.verified.Range(func(any, any) bool { n++; return true })
	if n > maxVerified || n == 0 {
		t.Fatalf("%d in the map", n)
	}
	if _, err := s.verify(tokens[0]); err != nil {
		t.Fatalf("a token dropped from the map: %v", err)
	}
}

// The benchmark's token-cache switch gives the plain path: every token
// checked in full, none kept, the same answers.
func TestTokenCacheOff_ChecksEveryTokenInFull(t *testing.T) {
	TokenCacheOff.Store(true)
	defer TokenCacheOff.Store(false)
	c := clock.NewManual(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	s := &tokenSigner{key: []byte("0123456789abcdef0123456789abcdef"), clock: c}
	token, _, err := s.issue("user-1", "family-1", 3)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if tok, err := s.verify(token); err != nil || tok.UserID != "user-1" {
			t.Fatalf("verify: %+v %v", tok, err)
		}
	}
	if n := s.verifiedLen.Load(); n != 0 {
		t.Fatalf("%d tokens kept with the cache off", n)
	}
	if _, err := s.verify(token[:len(token)-1]); err == nil {
		t.Fatal("a tampered token was let through")
	}
	c.Advance(AccessTTL + time.Second)
	if _, err := s.verify(token); err == nil {
		t.Fatal("an expired token was let through")
	}
}

package auth

import (
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
)

// A token is good until it expires and only as the very text that was
// signed: a token with one character changed, signed with another key, or
// past its expiry is refused every time, however often its neighbour was
// let through.
func TestVerify_AcceptsAGoodTokenOnlyUntilItExpires(t *testing.T) {
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

// A professional's token names the practice and the professional, both or
// neither: a token with only one of them is refused.
func TestVerify_AProfessionalsTokenCarriesPracticeAndProfessional(t *testing.T) {
	c := clock.NewManual(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	s := &tokenSigner{key: []byte("0123456789abcdef0123456789abcdef"), clock: c}
	want := accessToken{UserID: "account-1", Family: "f", Gen: 1, OwnerID: "owner-1", ProfessionalID: "pro-1"}
	token, _, err := s.issueFor(want)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.verify(token); err != nil || got != want || got.owner() != "owner-1" {
		t.Fatalf("verify: %+v %v", got, err)
	}
	for _, half := range []accessToken{{UserID: "a", Family: "f", OwnerID: "owner-1"}, {UserID: "a", Family: "f", ProfessionalID: "pro-1"}} {
		token, _, err := s.issueFor(half)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.verify(token); err == nil {
			t.Fatalf("a token with half a professional accepted: %+v", half)
		}
	}
}

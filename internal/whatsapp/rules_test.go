package whatsapp_test

import (
	"testing"

	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

func TestRecipient_IsE164DigitsWithoutPlus(t *testing.T) {
	for in, want := range map[string]string{
		"(11) 98765-4321":     "5511987654321",
		"11 3333-4444":        "551133334444",
		"+55 11 98765-4321":   "5511987654321",
		"5511987654321":       "5511987654321",
		"+1 (415) 555-2671":   "14155552671",
		"":                    "",
		"98765-4321":          "",
		"0800 123 4567":       "",
		"+55 11 98765-4321 0": "",
	} {
		if got := whatsapp.Recipient(in); got != want {
			t.Errorf("Recipient(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidSignature_AcceptsOnlyMetasHMACOfTheRawBody(t *testing.T) {
	body := []byte(`{"object":"whatsapp_business_account","entry":[]}`)
	good := graphtest.Sign("segredo-do-app", body)
	cases := map[string]struct {
		secret, header string
		body           []byte
		want           bool
	}{
		"Meta's signature":       {"segredo-do-app", good, body, true},
		"another app secret":     {"outro", good, body, false},
		"body changed":           {"segredo-do-app", good, append(body, ' '), false},
		"no prefix":              {"segredo-do-app", good[len("sha256="):], body, false},
		"uppercase hex is fine":  {"segredo-do-app", "sha256=" + upper(good[len("sha256="):]), body, true},
		"empty":                  {"segredo-do-app", "", body, false},
		"empty secret, no match": {"", good, body, false},
	}
	for name, c := range cases {
		if got := whatsapp.ValidSignature(c.secret, c.body, c.header); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

package auth_test

import (
	"errors"
	"testing"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Every stored e-mail passes NormalizeEmail: real addresses do, and what
// only looks like one to RFC 5322 (a domain of any atoms, as "%@%.%"
// whose % and _ a LIKE pattern reads as wildcards) is refused in pt-BR.
func TestNormalizeEmail_AcceptsAddressesAndRefusesPatterns(t *testing.T) {
	for in, want := range map[string]string{
		"ana@example.com":                     "ana@example.com",
		"  Ana.Souza+tag@Clinica.com.BR ":     "ana.souza+tag@clinica.com.br",
		"maria_dias-2@sub-dominio.exemplo.co": "maria_dias-2@sub-dominio.exemplo.co",
		"a@b.com":                             "a@b.com",
		"contato@clínica.com.br":              "contato@clínica.com.br",
		"x@xn--80ak6aa92e.xn--p1ai":           "x@xn--80ak6aa92e.xn--p1ai",
		"o'neil@example.org":                  "o'neil@example.org",
	} {
		got, err := auth.NormalizeEmail(in)
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"%@%.%", "a@%.com", "a@b.%", "_@_._", "a@b_c.com", "a@b", "a@.com", "a@b..com", "a@-b.com", "a@b-.com",
		"a@b.c", "a@b.c0m", "a@b.123", "não-é-email", "Ana <ana@example.com>", "a b@example.com", "@example.com", "ana@", "",
	} {
		got, err := auth.NormalizeEmail(in)
		var he *httpx.Error
		if err == nil {
			t.Errorf("%q accepted as %q", in, got)
		} else if !errors.As(err, &he) || he.Message != "Informe um e-mail válido." {
			t.Errorf("%q: %v", in, err)
		}
	}
}

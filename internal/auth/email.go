// E-mail addresses: NormalizeEmail, the one check every address Agendei stores passes.

package auth

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NormalizeEmail trims and lowercases an address and checks that it is one:
// a bare address as RFC 5322 writes it, whose domain is a host name
// (emailDomain). Every e-mail Agendei stores (accounts, profiles,
// professionals, clients) comes through here.
func NormalizeEmail(raw string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(raw))
	addr, err := mail.ParseAddress(e)
	if err != nil || addr.Address != e || len(e) > 254 || !emailDomain(e[strings.LastIndexByte(e, '@')+1:]) {
		return "", errEmailInvalid
	}
	return e, nil
}

// emailDomain reports whether d is a host name mail can be sent to: two or
// more labels of letters (accented ones too), digits and inner hyphens, of
// at most 63 characters, the last one a top-level name (two or more
// letters, or an xn-- name). RFC 5322 alone lets a domain be any atoms,
// so "%@%.%" passed as an address.
func emailDomain(d string) bool {
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || utf8.RuneCountInString(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(tld, "xn--") {
		return true
	}
	for _, r := range tld {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return utf8.RuneCountInString(tld) >= 2
}

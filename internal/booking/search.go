package booking

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// SearchKey is how client names and e-mails are matched: lowercased, accents
// removed ("Érica" finds "erica"), spaces folded.
func SearchKey(parts ...string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	s, _, err := transform.String(t, strings.ToLower(strings.Join(parts, " ")))
	if err != nil {
		s = strings.ToLower(strings.Join(parts, " "))
	}
	return strings.Join(strings.Fields(s), " ")
}

// ClientKey identifies a client: the phone, or the e-mail when there is none.
func ClientKey(phone, email string) string {
	if phone != "" {
		return phone
	}
	return strings.ToLower(email)
}

// LikeContaining is the LIKE pattern (with ESCAPE '\') of text containing s:
// s's own %, _ and \ match themselves.
func LikeContaining(s string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s) + "%"
}

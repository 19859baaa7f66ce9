// Package redact keeps clients' contacts out of log lines: an error a
// provider answers (an SMTP server's "550 <ana@example.com>: rejected",
// a WhatsApp send's text) may quote the recipient, and a log line is kept
// and shipped where the LGPD erase never reaches.
package redact

import (
	"log/slog"
	"regexp"
	"strings"
)

var (
	email = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
	// A run of digits, maybe written with a +, spaces, dots, dashes and
	// parentheses: each is then read as a phone or left (isPhone).
	digits = regexp.MustCompile(`\+?\(?[0-9][0-9 ().\-]{6,}[0-9]`)
	// A Brazilian phone as people write it: +55, the area code (in
	// parentheses or not), 8 or 9 digits, spaced or dashed.
	written = regexp.MustCompile(`^(\+?55[ .-]?)?\(?[1-9][0-9]\)?[ .-]?(9[ .-]?)?[0-9]{4}[ .-]?[0-9]{4}$`)
)

// isPhone says whether a run of digits is a phone number: written as one
// with a separator ("(11) 95555-1111", "+55 11 3333-4444"), or bare as a
// mobile ("11955551111") or as WhatsApp writes one ("5511955551111",
// "551133334444"). A bare ten-digit run is not taken for a landline: it is
// as likely a payment's id.
func isPhone(run string) bool {
	if !written.MatchString(run) {
		return false
	}
	bare := true
	for _, c := range run {
		if c < '0' || c > '9' {
			bare = false
		}
	}
	switch {
	case !bare:
		return true
	case len(run) == 11:
		return run[2] == '9'
	case len(run) == 13:
		return run[:2] == "55" && run[4] == '9'
	case len(run) == 12:
		return run[:2] == "55"
	}
	return false
}

// Text is s with every e-mail address written [e-mail] and every phone
// number [telefone].
func Text(s string) string {
	s = email.ReplaceAllString(s, "[e-mail]")
	var out []byte
	last := 0
	for _, m := range digits.FindAllStringIndex(s, -1) {
		i, j := m[0], m[1]
		run := strings.TrimRight(s[i:j], " .-(")
		j = i + len(run)
		// A whole run: not a piece of an id, a word or a longer number.
		if i > 0 && isWord(s[i-1]) || j < len(s) && isWord(s[j]) || !isPhone(run) {
			continue
		}
		out = append(append(out, s[last:i]...), "[telefone]"...)
		last = j
	}
	if out == nil {
		return s
	}
	return string(append(out, s[last:]...))
}

func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// Attr is a slog.HandlerOptions.ReplaceAttr that redacts (Text) every text
// and error value of a log line, whichever code logged it.
func Attr(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		if s := a.Value.String(); Text(s) != s {
			a.Value = slog.StringValue(Text(s))
		}
	case slog.KindAny:
		switch v := a.Value.Any().(type) {
		case error:
			if s := v.Error(); Text(s) != s {
				a.Value = slog.StringValue(Text(s))
			}
		case interface{ String() string }:
			if s := v.String(); Text(s) != s {
				a.Value = slog.StringValue(Text(s))
			}
		}
	}
	return a
}

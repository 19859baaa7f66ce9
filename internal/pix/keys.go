package pix

import (
	"net/mail"
	"regexp"
	"strings"

	"github.com/google/uuid"
)

// Kinds of Pix key ("chave Pix").
const (
	KindCPF    = "cpf"
	KindCNPJ   = "cnpj"
	KindPhone  = "phone"
	KindEmail  = "email"
	KindRandom = "random" // "chave aleatória" (EVP): a UUID
)

var nonDigits = regexp.MustCompile(`[^0-9]`)

// Key checks a Pix key of the given kind and returns it as the BR Code
// carries it: CPF and CNPJ as their 11 and 14 digits (check digits
// verified; punctuation allowed in the input), a phone as +55 with DDD and
// number (E.164), an e-mail in lower case (at most 77 characters), a
// random key as a lower-case UUID. ok is false for anything else.
func Key(kind, raw string) (key string, ok bool) {
	raw = strings.TrimSpace(raw)
	switch kind {
	case KindCPF:
		if !onlyDigitsAnd(raw, ".-") {
			return "", false
		}
		d := nonDigits.ReplaceAllString(raw, "")
		return d, CPF(d)
	case KindCNPJ:
		if !onlyDigitsAnd(raw, "./-") {
			return "", false
		}
		d := nonDigits.ReplaceAllString(raw, "")
		return d, CNPJ(d)
	case KindPhone:
		return Phone(raw)
	case KindEmail:
		e := strings.ToLower(raw)
		a, err := mail.ParseAddress(e)
		if err != nil || a.Address != e || len(e) > 77 || !strings.Contains(e[strings.LastIndexByte(e, '@'):], ".") {
			return "", false
		}
		return e, true
	case KindRandom:
		u, err := uuid.Parse(raw)
		if err != nil || len(raw) != 36 {
			return "", false
		}
		return u.String(), true
	}
	return "", false
}

func onlyDigitsAnd(s, extra string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9') && !strings.ContainsRune(extra+" ", r) {
			return false
		}
	}
	return true
}

// Phone reads a Brazilian mobile or landline as a Pix key: +55, a DDD
// (11–99, no zero digit) and 8 or 9 digits (a 9-digit number starts with
// 9). Spaces, ( ) - . are allowed in the input; the country code may be
// left out.
func Phone(raw string) (string, bool) {
	if !onlyDigitsAnd(raw, "+()-.") || strings.Count(raw, "+") > 1 || (strings.Contains(raw, "+") && !strings.HasPrefix(raw, "+")) {
		return "", false
	}
	d := nonDigits.ReplaceAllString(raw, "")
	if (len(d) == 12 || len(d) == 13) && strings.HasPrefix(d, "55") {
		d = d[2:]
	} else if strings.HasPrefix(raw, "+") {
		return "", false // another country's number
	}
	if len(d) != 10 && len(d) != 11 {
		return "", false
	}
	if d[0] == '0' || d[1] == '0' || (len(d) == 11 && d[2] != '9') {
		return "", false
	}
	return "+55" + d, true
}

// CPF reports whether 11 digits are a CPF: both check digits right, and
// not one digit repeated.
func CPF(d string) bool {
	if len(d) != 11 || !allDigits(d) || strings.Count(d, d[:1]) == 11 {
		return false
	}
	return checkDigit(d[:9], 10) == d[9] && checkDigit(d[:10], 11) == d[10]
}

// checkDigit is the CPF's mod-11 digit of the digits, weights falling from first.
func checkDigit(d string, first int) byte {
	sum := 0
	for i := range len(d) {
		sum += int(d[i]-'0') * (first - i)
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

// CNPJ reports whether 14 digits are a CNPJ: both check digits right, and
// not one digit repeated.
func CNPJ(d string) bool {
	if len(d) != 14 || !allDigits(d) || strings.Count(d, d[:1]) == 14 {
		return false
	}
	return cnpjDigit(d[:12]) == d[12] && cnpjDigit(d[:13]) == d[13]
}

// cnpjDigit is the CNPJ's mod-11 digit: weights 2..9 from the right, cycling.
func cnpjDigit(d string) byte {
	sum, w := 0, 2
	for i := len(d) - 1; i >= 0; i-- {
		sum += int(d[i]-'0') * w
		if w++; w > 9 {
			w = 2
		}
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

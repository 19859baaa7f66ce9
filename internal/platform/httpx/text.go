package httpx

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"
)

// CleanText is free text as it may be stored: line breaks made "\n" (CRLF
// and a lone CR alike), and dropped: every other C0 control but the tab
// (NUL, BEL, ESC…), DEL and the C1 controls, the bidirectional overrides,
// embeddings and isolates (which can make a name read as something else),
// and Unicode non-characters. Everything a person types survives.
func CleanText(s string) string {
	clean := true
	for _, r := range s {
		if dropped(r) || r == '\r' {
			clean = false
			break
		}
	}
	if clean {
		return s // the common case: no copy
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case dropped(r):
			return -1
		}
		return r
	}, s)
}

func dropped(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f: // C0 (but CR, handled apart), DEL, C1
		return r != '\r'
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe: // non-characters
		return true
	}
	return false
}

// cleanStrings applies CleanText to every string reachable from v: struct
// fields, pointers, slices, arrays, map keys and values, interfaces.
func cleanStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Interface {
			// What an interface holds cannot be changed in place: clean a copy.
			inner := v.Elem()
			if !v.CanSet() || (inner.Kind() != reflect.String && inner.Kind() != reflect.Array && inner.Kind() != reflect.Struct) {
				cleanStrings(inner)
				return
			}
			c := reflect.New(inner.Type()).Elem()
			c.Set(inner)
			cleanStrings(c)
			v.Set(c)
			return
		}
		cleanStrings(v.Elem())
	case reflect.String:
		if v.CanSet() {
			if s := v.String(); CleanText(s) != s {
				v.SetString(CleanText(s))
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				cleanStrings(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes (json.RawMessage…), not text
		}
		for i := range v.Len() {
			cleanStrings(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(v.MapIndex(k))
			cleanStrings(val)
			nk := k
			if k.Kind() == reflect.String && CleanText(k.String()) != k.String() {
				nk = reflect.New(k.Type()).Elem()
				nk.SetString(CleanText(k.String()))
				v.SetMapIndex(k, reflect.Value{})
			}
			v.SetMapIndex(nk, val)
		}
	}
}

// MaxSearch is the longest search text (the q of a list) in characters: a
// name, a phone or an e-mail fit well within it, and a pattern far longer
// is refused by SQLite's LIKE ("pattern too complex") past ~50,000.
const MaxSearch = 100

// ErrSearchTooLong refuses a search text past MaxSearch.
var ErrSearchTooLong = Validation(fmt.Sprintf("A busca pode ter no máximo %d caracteres.", MaxSearch))

// SearchText is the request's search text (its q), or ErrSearchTooLong.
func SearchText(r *http.Request) (string, error) {
	q := r.URL.Query().Get("q")
	if utf8.RuneCountInString(q) > MaxSearch {
		return "", ErrSearchTooLong
	}
	return q, nil
}

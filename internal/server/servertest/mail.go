package servertest

import (
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"
)

// Calendar returns the text/calendar part of the message (its .ics invite),
// decoded; the test fails when there is none.
func (m Mail) Calendar(t testing.TB) string {
	t.Helper()
	raw := m.Raw
	msg, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(r io.Reader, ct string) string
	walk = func(r io.Reader, ct string) string {
		mt, params, _ := mime.ParseMediaType(ct)
		if !strings.HasPrefix(mt, "multipart/") {
			return ""
		}
		mr := multipart.NewReader(r, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return ""
			}
			pct := p.Header.Get("Content-Type")
			if strings.HasPrefix(pct, "text/calendar") {
				body, _ := io.ReadAll(p)
				if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "base64") {
					dec, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(strings.ReplaceAll(string(body), "\r\n", ""), "\n", ""))
					if err != nil {
						t.Fatal(err)
					}
					return string(dec)
				}
				return string(body)
			}
			if s := walk(p, pct); s != "" {
				return s
			}
		}
	}
	out := walk(msg.Body, msg.Header.Get("Content-Type"))
	if out == "" {
		t.Fatal("no text/calendar part")
	}
	return out
}

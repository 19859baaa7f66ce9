package pushtest

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/golang-jwt/jwt/v5"
)

// capture keeps the request webpush-go builds instead of sending it, so a
// test can spoil one part and send the rest as it was.
type capture struct{ req *http.Request }

func (c *capture) Do(r *http.Request) (*http.Response, error) {
	c.req = r
	return &http.Response{StatusCode: 201, Body: io.NopCloser(strings.NewReader(""))}, nil
}

func vapidKeys(t *testing.T) (private, public string, key *ecdsa.PrivateKey) {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	private = base64.RawURLEncoding.EncodeToString(k.Bytes())
	public = base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes())
	key, err = ecdsa.ParseRawPrivateKey(elliptic.P256(), k.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return private, public, key
}

// built is a valid request to b, signed with the given key, as webpush-go makes it.
func built(t *testing.T, b *Browser, private, public string, recordSize uint32) (*http.Request, []byte) {
	t.Helper()
	p256dh, auth := b.Keys()
	c := &capture{}
	_, err := webpush.SendNotification([]byte(`{"title":"Lembrete"}`), &webpush.Subscription{Endpoint: b.Endpoint, Keys: webpush.Keys{P256dh: p256dh, Auth: auth}},
		&webpush.Options{HTTPClient: c, Subscriber: "contato@example.com", VAPIDPublicKey: public, VAPIDPrivateKey: private, TTL: 60, RecordSize: recordSize})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(c.req.Body)
	return c.req, body
}

func send(t *testing.T, s *Service, req *http.Request, body []byte) int {
	t.Helper()
	out, _ := http.NewRequest(http.MethodPost, req.URL.String(), bytes.NewReader(body))
	out.Header = req.Header.Clone()
	resp, err := s.Client().Do(out)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// jwtWith signs claims as a VAPID token with key.
func jwtWith(t *testing.T, key *ecdsa.PrivateKey, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodES256, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The fake is only worth what it refuses: a valid request is decrypted to
// its text, and each spoiled part of one is refused with the status a push
// service answers.
func TestPushService_DecryptsAValidMessageAndRefusesWhatTheRFCsRefuse(t *testing.T) {
	s := New(t)
	private, public, key := vapidKeys(t)
	b := s.Subscribe(public)
	req, body := built(t, b, private, public, 0)
	if code := send(t, s, req, body); code != 201 {
		t.Fatalf("a valid message: %d %v", code, s.Refusals())
	}
	if got := s.For(b); len(got) != 1 || string(got[0].Plaintext) != `{"title":"Lembrete"}` || got[0].TTL != 60 {
		t.Fatalf("received: %+v", got)
	}
	origin := "https://" + req.URL.Host
	k := public
	for _, c := range []struct {
		name  string
		spoil func(h http.Header, body []byte) []byte
		code  int
	}{
		{"no Authorization", func(h http.Header, b []byte) []byte { h.Del("Authorization"); return b }, 401},
		{"another server's key", func(h http.Header, b []byte) []byte {
			p2, pub2, _ := vapidKeys(t)
			r2, _ := built(t, s.Subscribe(pub2), p2, pub2, 0)
			h.Set("Authorization", r2.Header.Get("Authorization"))
			return b
		}, 403},
		{"a signature by another key", func(h http.Header, b []byte) []byte {
			_, _, other := vapidKeys(t)
			h.Set("Authorization", "vapid t="+jwtWith(t, other, jwt.MapClaims{"aud": origin, "exp": time.Now().Add(time.Hour).Unix(), "sub": "mailto:a@b.c"})+", k="+k)
			return b
		}, 401},
		{"aud of another origin", func(h http.Header, b []byte) []byte {
			h.Set("Authorization", "vapid t="+jwtWith(t, key, jwt.MapClaims{"aud": "https://fcm.googleapis.com", "exp": time.Now().Add(time.Hour).Unix(), "sub": "mailto:a@b.c"})+", k="+k)
			return b
		}, 401},
		{"exp over 24 hours", func(h http.Header, b []byte) []byte {
			h.Set("Authorization", "vapid t="+jwtWith(t, key, jwt.MapClaims{"aud": origin, "exp": time.Now().Add(25 * time.Hour).Unix(), "sub": "mailto:a@b.c"})+", k="+k)
			return b
		}, 401},
		{"exp past", func(h http.Header, b []byte) []byte {
			h.Set("Authorization", "vapid t="+jwtWith(t, key, jwt.MapClaims{"aud": origin, "exp": time.Now().Add(-time.Minute).Unix(), "sub": "mailto:a@b.c"})+", k="+k)
			return b
		}, 401},
		{"sub not a contact", func(h http.Header, b []byte) []byte {
			h.Set("Authorization", "vapid t="+jwtWith(t, key, jwt.MapClaims{"aud": origin, "exp": time.Now().Add(time.Hour).Unix(), "sub": "agendei"})+", k="+k)
			return b
		}, 401},
		{"no TTL", func(h http.Header, b []byte) []byte { h.Del("TTL"); return b }, 400},
		{"another content coding", func(h http.Header, b []byte) []byte { h.Set("Content-Encoding", "aesgcm"); return b }, 415},
		{"a bad Urgency", func(h http.Header, b []byte) []byte { h.Set("Urgency", "urgent"); return b }, 400},
		{"a Topic too long", func(h http.Header, b []byte) []byte { h.Set("Topic", strings.Repeat("a", 33)); return b }, 400},
		{"a spoiled ciphertext", func(h http.Header, b []byte) []byte {
			c := bytes.Clone(b)
			c[len(c)-20] ^= 1
			return c
		}, 400},
		{"a short keyid", func(h http.Header, b []byte) []byte { c := bytes.Clone(b); c[20] = 64; return c }, 400},
	} {
		h := req.Header.Clone()
		spoiled := c.spoil(h, body)
		r := req.Clone(req.Context())
		r.Header = h
		if code := send(t, s, r, spoiled); code != c.code {
			t.Errorf("%s: %d, want %d", c.name, code, c.code)
		}
	}
	// A body over 4096 bytes (a record size the RFC's application server must not use).
	big, bigBody := built(t, b, private, public, 5000)
	if code := send(t, s, big, bigBody); code != 413 {
		t.Errorf("a body of %d bytes: %d, want 413", len(bigBody), code)
	}
	// A browser gone answers 410 after the checks.
	s.Answer(b, http.StatusGone)
	if code := send(t, s, req, body); code != 410 {
		t.Errorf("gone: %d", code)
	}
	if n := len(s.For(b)); n != 1 {
		t.Fatalf("%d messages accepted; only the valid one should be", n)
	}
}

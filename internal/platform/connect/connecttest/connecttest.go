// Package connecttest is the base of the in-process fakes of outside
// providers (whatsapp/graphtest, mercadopago/mptest): the server, the
// count of requests, the problems — requests the fake refused as not
// shaped as the provider documents, which a test that expects none checks
// is empty — and the failures queued for the next requests. A fake embeds
// Base and checks each request against the provider's documentation
// itself; Base has its own lock, so a fake may call it holding its own.
package connecttest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Base is what every fake has; F is how the fake describes a failure to
// answer (an HTTP status, or a status with the provider's error code).
type Base[F any] struct {
	srv *httptest.Server

	mu       sync.Mutex
	requests int
	problems []string
	failNext []F
}

// Start serves h on a local test server.
func (b *Base[F]) Start(h http.Handler) { b.srv = httptest.NewServer(h) }

// URL is the fake's origin (the API base URL to configure).
func (b *Base[F]) URL() string { return b.srv.URL }

// Close stops the fake.
func (b *Base[F]) Close() {
	if b.srv != nil {
		b.srv.Close()
	}
}

// Count counts a request received.
func (b *Base[F]) Count() {
	b.mu.Lock()
	b.requests++
	b.mu.Unlock()
}

// Requests counts the requests received.
func (b *Base[F]) Requests() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.requests
}

// Problem records a request the provider's documentation does not allow.
func (b *Base[F]) Problem(format string, args ...any) {
	b.mu.Lock()
	b.problems = append(b.problems, fmt.Sprintf(format, args...))
	b.mu.Unlock()
}

// Problems are the requests the fake refused as not shaped as the provider
// documents: a test that expects none checks it is empty.
func (b *Base[F]) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// Fail makes the next n requests the fake asks NextFailure about fail as f.
func (b *Base[F]) Fail(n int, f F) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for range n {
		b.failNext = append(b.failNext, f)
	}
}

// NextFailure takes the next queued failure, if any.
func (b *Base[F]) NextFailure() (F, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var f F
	if len(b.failNext) == 0 {
		return f, false
	}
	f, b.failNext = b.failNext[0], b.failNext[1:]
	return f, true
}

// Bearer is the request's "Authorization: Bearer <token>" ("" when none).
func Bearer(r *http.Request) string {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if tok == r.Header.Get("Authorization") {
		return ""
	}
	return tok
}

// WriteJSON answers v as JSON with the status and content type given.
func WriteJSON(w http.ResponseWriter, status int, contentType string, v any) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// RandHex is n random bytes in lower-case hex.
func RandHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// RandDigits is n random digits 1–9 (no leading zero for an id).
func RandDigits(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = '1' + b[i]%9
	}
	return string(b)
}

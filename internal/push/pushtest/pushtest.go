// Package pushtest is an in-process push service (RFC 8030) for tests: it
// hands out browsers' subscriptions, and for each message POSTed to one it
// checks what the RFCs ask of an application server — the VAPID
// Authorization (RFC 8292: "vapid t=<JWT>, k=<key>", an ES256 JWT signed by
// k, k the key the browser subscribed with, aud the endpoint's origin, exp
// in the future and within 24 hours, sub a mailto: or https: contact), the
// TTL header, Content-Encoding aes128gcm, Urgency and Topic when present,
// a body of at most 4096 bytes — and decrypts the body with the browser's
// private key and auth secret (RFC 8291 over RFC 8188: one record, keyid
// the server's 65-byte ephemeral key, the last-record delimiter 0x02).
// Whatever fails a check is refused with the status a push service would
// answer, and kept (Refusals). A browser can be made to answer 404 or 410
// (Gone), as after it unsubscribed.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Browser is one subscribed browser: its endpoint and keys.
type Browser struct {
	Endpoint string
	key      *ecdh.PrivateKey
	auth     []byte
	server   []byte // the applicationServerKey it subscribed with
}

// Keys are the browser's public key and auth secret as
// PushSubscription.toJSON() gives them (base64url, no padding).
func (b *Browser) Keys() (p256dh, auth string) {
	return base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(b.auth)
}

// JSON is the subscription as the browser's toJSON() writes it.
func (b *Browser) JSON() map[string]any {
	p, a := b.Keys()
	return map[string]any{"endpoint": b.Endpoint, "expirationTime": nil, "keys": map[string]string{"p256dh": p, "auth": a}}
}

// Received is one message the service accepted, decrypted.
type Received struct {
	Endpoint  string
	TTL       int
	Urgency   string
	Topic     string
	Plaintext []byte
}

// Reporter is where the fake reports a misuse: a test's testing.TB, or a
// program's (the bench's) stand-in that stops it.
type Reporter interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// Service is the fake push service.
type Service struct {
	t      Reporter
	srv    *httptest.Server
	mu     sync.Mutex
	byPath map[string]*Browser
	answer map[string]int
	got    []Received
	refuse []string
}

// New starts a push service on an https loopback address.
func New(t testing.TB) *Service {
	s := Start(t)
	t.Cleanup(s.Close)
	return s
}

// Start starts a push service outside a test (the bench drives the real
// binary against it); Close stops it.
func Start(r Reporter) *Service {
	s := &Service{t: r, byPath: map[string]*Browser{}, answer: map[string]int{}}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	return s
}

// Close stops the service.
func (s *Service) Close() { s.srv.Close() }

// CertPEM is the service's certificate, for a process that must trust it
// (SSL_CERT_FILE).
func (s *Service) CertPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw})
}

// Client is an HTTP client that trusts the service's certificate.
func (s *Service) Client() *http.Client { return s.srv.Client() }

// Host is the service's host name, for the allow-list.
func (s *Service) Host() string {
	u, _ := url.Parse(s.srv.URL)
	return u.Hostname()
}

// Subscribe makes a browser that subscribed with applicationServerKey (the
// server's VAPID public key, base64url).
func (s *Service) Subscribe(applicationServerKey string) *Browser {
	s.t.Helper()
	server, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(applicationServerKey, "="))
	if err != nil || len(server) != 65 {
		s.t.Fatalf("pushtest: applicationServerKey %q is not a base64url P-256 point", applicationServerKey)
	}
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		s.t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	id := make([]byte, 18)
	_, _ = rand.Read(id)
	path := "/wpush/v2/" + base64.RawURLEncoding.EncodeToString(id)
	b := &Browser{Endpoint: s.srv.URL + path, key: key, auth: auth, server: server}
	s.mu.Lock()
	s.byPath[path] = b
	s.mu.Unlock()
	return b
}

// Answer makes the browser's endpoint answer code (404, 410: gone) to every
// message from now on, after the checks.
func (s *Service) Answer(b *Browser, code int) {
	u, _ := url.Parse(b.Endpoint)
	s.mu.Lock()
	s.answer[u.Path] = code
	s.mu.Unlock()
}

// Messages are the messages accepted so far, in order.
func (s *Service) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// For are the messages accepted for one browser.
func (s *Service) For(b *Browser) []Received {
	var out []Received
	for _, m := range s.Messages() {
		if m.Endpoint == b.Endpoint {
			out = append(out, m)
		}
	}
	return out
}

// Refusals are the reasons of every request refused.
func (s *Service) Refusals() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refuse...)
}

type refusal struct {
	code   int
	reason string
}

func (r refusal) Error() string { return fmt.Sprintf("%d: %s", r.code, r.reason) }

func refuse(code int, format string, a ...any) error {
	return refusal{code, fmt.Sprintf(format, a...)}
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b := s.byPath[r.URL.Path]
	code := s.answer[r.URL.Path]
	s.mu.Unlock()
	if r.Method != http.MethodPost {
		s.fail(w, refuse(http.StatusMethodNotAllowed, "method %s", r.Method))
		return
	}
	if b == nil {
		s.fail(w, refuse(http.StatusNotFound, "no such subscription"))
		return
	}
	m, err := s.check(r, b)
	if err != nil {
		s.fail(w, err)
		return
	}
	if code != 0 {
		w.WriteHeader(code)
		return
	}
	s.mu.Lock()
	s.got = append(s.got, m)
	s.mu.Unlock()
	w.Header().Set("Location", b.Endpoint+"/m/"+strconv.Itoa(len(s.got)))
	w.WriteHeader(http.StatusCreated)
}

func (s *Service) fail(w http.ResponseWriter, err error) {
	var rf refusal
	if !errors.As(err, &rf) {
		rf = refusal{http.StatusBadRequest, err.Error()}
	}
	s.mu.Lock()
	s.refuse = append(s.refuse, rf.reason)
	s.mu.Unlock()
	http.Error(w, rf.reason, rf.code)
}

var (
	vapidHeader = regexp.MustCompile(`^(?i:vapid)\s+(.+)$`)
	topicChars  = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)
)

// check holds a request to the RFCs and decrypts its body.
func (s *Service) check(r *http.Request, b *Browser) (Received, error) {
	m := Received{Endpoint: b.Endpoint}
	if err := s.checkVAPID(r, b); err != nil {
		return m, err
	}
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl < 0 {
		return m, refuse(http.StatusBadRequest, "TTL header missing or not a non-negative integer: %q", r.Header.Get("TTL")) // RFC 8030 §5.2
	}
	m.TTL = ttl
	if u := r.Header.Get("Urgency"); u != "" {
		switch u {
		case "very-low", "low", "normal", "high":
		default:
			return m, refuse(http.StatusBadRequest, "Urgency %q", u) // RFC 8030 §5.3
		}
		m.Urgency = u
	}
	if t := r.Header.Get("Topic"); t != "" {
		if !topicChars.MatchString(t) {
			return m, refuse(http.StatusBadRequest, "Topic %q: at most 32 base64url characters", t) // RFC 8030 §5.4
		}
		m.Topic = t
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		return m, refuse(http.StatusUnsupportedMediaType, "Content-Encoding %q, want aes128gcm", ce) // RFC 8291 §4
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 4097))
	if err != nil {
		return m, err
	}
	if len(body) > 4096 {
		return m, refuse(http.StatusRequestEntityTooLarge, "body over 4096 bytes") // RFC 8030 §7.2, RFC 8291 §4
	}
	if m.Plaintext, err = decrypt(body, b); err != nil {
		return m, refuse(http.StatusBadRequest, "%v", err)
	}
	return m, nil
}

// checkVAPID checks the Authorization header (RFC 8292 §3, §4).
func (s *Service) checkVAPID(r *http.Request, b *Browser) error {
	mm := vapidHeader.FindStringSubmatch(r.Header.Get("Authorization"))
	if mm == nil {
		return refuse(http.StatusUnauthorized, "Authorization is not the vapid scheme")
	}
	params := map[string]string{}
	for _, p := range strings.Split(mm[1], ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok {
			return refuse(http.StatusUnauthorized, "vapid parameter %q", p)
		}
		params[strings.ToLower(k)] = strings.Trim(v, `"`)
	}
	k, err := base64.RawURLEncoding.DecodeString(params["k"])
	if err != nil || len(k) != 65 || k[0] != 4 {
		return refuse(http.StatusUnauthorized, "k is not a base64url uncompressed P-256 key")
	}
	if !bytes.Equal(k, b.server) {
		return refuse(http.StatusForbidden, "k is not the key the subscription was made with") // RFC 8292 §4.2
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), k)
	if err != nil {
		return refuse(http.StatusUnauthorized, "k: %v", err)
	}
	parts := strings.Split(params["t"], ".")
	if len(parts) != 3 {
		return refuse(http.StatusUnauthorized, "t is not a JWT")
	}
	var header struct{ Typ, Alg string }
	if err := decodeJSON(parts[0], &header); err != nil || header.Alg != "ES256" {
		return refuse(http.StatusUnauthorized, "JWT header %q: alg must be ES256", parts[0])
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return refuse(http.StatusUnauthorized, "JWT signature is not 64 bytes (r||s)")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return refuse(http.StatusUnauthorized, "JWT signature does not verify with k")
	}
	var claims struct {
		Aud string  `json:"aud"`
		Exp float64 `json:"exp"`
		Sub string  `json:"sub"`
	}
	if err := decodeJSON(parts[1], &claims); err != nil {
		return refuse(http.StatusUnauthorized, "JWT claims: %v", err)
	}
	origin := "https://" + r.Host
	if claims.Aud != origin {
		return refuse(http.StatusUnauthorized, "aud %q, want the endpoint's origin %q", claims.Aud, origin)
	}
	now := time.Now()
	exp := time.Unix(int64(claims.Exp), 0)
	if !exp.After(now) || exp.After(now.Add(24*time.Hour)) {
		return refuse(http.StatusUnauthorized, "exp %s: must be after now and within 24 hours", exp)
	}
	if !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:") {
		return refuse(http.StatusUnauthorized, "sub %q: must be a mailto: or https: contact", claims.Sub)
	}
	return nil
}

func decodeJSON(part string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// decrypt opens an aes128gcm body (RFC 8188) with the browser's keys (RFC 8291).
func decrypt(body []byte, b *Browser) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the content-coding header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if rs < 18 {
		return nil, fmt.Errorf("record size %d under 18", rs) // RFC 8188 §2.1
	}
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("keyid of %d bytes: must be the server's 65-byte public key", idlen) // RFC 8291 §4
	}
	asPublic := body[21 : 21+idlen]
	record := body[21+idlen:]
	if len(record) > int(rs) {
		return nil, errors.New("more than one record") // RFC 8291 §4: a single record
	}
	if len(record) < 17 {
		return nil, errors.New("record shorter than its tag and delimiter")
	}
	peer, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, fmt.Errorf("keyid is not a P-256 point: %v", err)
	}
	secret, err := b.key.ECDH(peer)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), asPublic...)
	ikm, err := hkdf.Key(sha256.New, secret, b.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, errors.New("the record does not decrypt with the subscription's keys")
	}
	end := bytes.TrimRight(plain, "\x00")
	if len(end) == 0 || end[len(end)-1] != 0x02 {
		return nil, errors.New("the single record does not end with the last-record delimiter 0x02") // RFC 8188 §2
	}
	return end[:len(end)-1], nil
}

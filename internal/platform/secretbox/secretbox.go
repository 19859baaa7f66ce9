// Package secretbox keeps owners' provider secrets (a WhatsApp access token,
// an app secret, later a Mercado Pago token) encrypted at rest. The key
// comes from the server's configuration (AGENDEI_SECRET_KEY), never from the
// database, so a copy of the database alone reveals no secret.
//
// Each value is sealed with AES-256-GCM under a random 96-bit nonce and
// written as
//
//	v1.<key id>.<base64url(nonce ‖ ciphertext ‖ tag)>
//
// The key id (the first 8 hex digits of the key's SHA-256) names the key
// that sealed it, so keys can rotate: the configuration lists the new key
// first and the old ones after it; new values are sealed with the first,
// and any listed key opens what it sealed (Stale says which values to
// re-seal). The caller passes a context string (for example the owner's id
// and the field's name) that is authenticated with the value: a ciphertext
// copied to another owner's row, or into another field, does not open.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

const version = "v1"

// KeySize is the length of a key: 32 bytes, AES-256.
const KeySize = 32

// ErrOpen is any failure to open a sealed value: tampered, sealed under a
// key not configured, or for another context. It says no more on purpose.
var ErrOpen = errors.New("secretbox: cannot open the value (wrong key, context or tampered)")

// Box seals with its first key and opens with any of them.
type Box struct {
	ids   []string
	aeads map[string]cipher.AEAD
}

// New returns a Box over keys, the first of which seals. Each key is
// KeySize bytes.
func New(keys ...[]byte) (*Box, error) {
	if len(keys) == 0 {
		return nil, errors.New("secretbox: no key")
	}
	b := &Box{aeads: map[string]cipher.AEAD{}}
	for i, k := range keys {
		if len(k) != KeySize {
			return nil, fmt.Errorf("secretbox: key %d has %d bytes, want %d", i+1, len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		id := KeyID(k)
		if _, dup := b.aeads[id]; dup {
			return nil, fmt.Errorf("secretbox: key %d repeats an earlier key", i+1)
		}
		b.ids = append(b.ids, id)
		b.aeads[id] = aead
	}
	return b, nil
}

// Parse reads a configuration value: base64 keys (standard or URL
// alphabet, padded or not) separated by commas, the sealing key first.
func Parse(s string) (*Box, error) {
	var keys [][]byte
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, err := decodeKey(part)
		if err != nil {
			return nil, fmt.Errorf("secretbox: a key is not base64 of %d bytes: %w", KeySize, err)
		}
		keys = append(keys, k)
	}
	return New(keys...)
}

func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil {
			if len(k) != KeySize {
				return nil, fmt.Errorf("%d bytes", len(k))
			}
			return k, nil
		}
	}
	return nil, errors.New("not base64")
}

// NewKey returns a random key as the configuration writes it (base64).
func NewKey() (string, error) {
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(k), nil
}

// KeyID names a key without revealing it.
func KeyID(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:4])
}

// Seal encrypts plaintext for context with the sealing key.
func (b *Box) Seal(plaintext, context string) (string, error) {
	id := b.ids[0]
	aead := b.aeads[id]
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := aead.Seal(nonce, nonce, []byte(plaintext), aad(id, context))
	return version + "." + id + "." + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts a value Seal made for the same context with any configured key.
func (b *Box) Open(sealed, context string) (string, error) {
	v, id, body, ok := split(sealed)
	if !ok || v != version {
		return "", ErrOpen
	}
	aead, ok := b.aeads[id]
	if !ok {
		return "", ErrOpen
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return "", ErrOpen
	}
	n := aead.NonceSize()
	plain, err := aead.Open(nil, raw[:n], raw[n:], aad(id, context))
	if err != nil {
		return "", ErrOpen
	}
	return string(plain), nil
}

// Stale reports whether a sealed value was sealed by a key other than the
// sealing key (one to re-seal after a rotation).
func (b *Box) Stale(sealed string) bool {
	_, id, _, ok := split(sealed)
	return !ok || id != b.ids[0]
}

func split(sealed string) (v, id, body string, ok bool) {
	parts := strings.SplitN(sealed, ".", 3)
	if len(parts) != 3 {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// aad binds the format version, key id and the caller's context to the
// ciphertext.
func aad(id, context string) []byte {
	return []byte(version + "." + id + "." + context)
}

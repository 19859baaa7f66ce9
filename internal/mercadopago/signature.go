package mercadopago

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// SignatureWindow is how far a notification's ts may be from the server's
// clock, either way, before it is refused as stale (a captured notification
// replayed later, or a clock far off).
const SignatureWindow = 5 * time.Minute

var (
	// ErrSignature is a missing, malformed or wrong x-signature.
	ErrSignature = errors.New("mercado pago: invalid x-signature")
	// ErrStale is a well-signed notification whose ts is outside SignatureWindow.
	ErrStale = errors.New("mercado pago: stale x-signature timestamp")
)

// Manifest is the text Mercado Pago signs for a notification, as its
// webhook documentation gives the template
// "id:[data.id_url];request-id:[x-request-id_header];ts:[ts_header];":
// data.id is the one in the notification URL's query string, lowercased
// when alphanumeric; a part whose value the notification lacks is left out.
func Manifest(dataID, requestID, ts string) string {
	var b strings.Builder
	if dataID != "" {
		b.WriteString("id:" + strings.ToLower(dataID) + ";")
	}
	if requestID != "" {
		b.WriteString("request-id:" + requestID + ";")
	}
	if ts != "" {
		b.WriteString("ts:" + ts + ";")
	}
	return b.String()
}

// Sign is the hex HMAC-SHA256 of the manifest under the webhook's secret:
// the v1 of the x-signature header.
func Sign(secret, dataID, requestID, ts string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(Manifest(dataID, requestID, ts)))
	return hex.EncodeToString(m.Sum(nil))
}

// ParseSignature splits an x-signature header ("ts=…,v1=…", parts in any
// order, spaces around them allowed) into its ts and v1.
func ParseSignature(header string) (ts, v1 string) {
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "ts":
			ts = strings.TrimSpace(v)
		case "v1":
			v1 = strings.TrimSpace(v)
		}
	}
	return ts, v1
}

// Verify checks a notification's x-signature against the secret, in
// constant time, and its ts against now within SignatureWindow. ts is
// read as seconds, or as milliseconds when it has 13 digits or more
// (Mercado Pago's documentation shows seconds; its notifications have been
// seen with milliseconds).
func Verify(secret, header, dataID, requestID string, now time.Time) error {
	ts, v1 := ParseSignature(header)
	// A notification without data.id is signed without it: the documented
	// rule (and Mercado Pago's SDKs) leave a missing part out of the
	// manifest, so its absence is no reason to refuse.
	if ts == "" || v1 == "" || secret == "" {
		return ErrSignature
	}
	got, err := hex.DecodeString(v1)
	if err != nil {
		return ErrSignature
	}
	want, _ := hex.DecodeString(Sign(secret, dataID, requestID, ts))
	if !hmac.Equal(got, want) {
		return ErrSignature
	}
	n, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || n <= 0 {
		return ErrSignature
	}
	at := time.Unix(n, 0)
	if len(ts) >= 13 {
		at = time.UnixMilli(n)
	}
	if d := now.Sub(at); d > SignatureWindow || d < -SignatureWindow {
		return ErrStale
	}
	return nil
}

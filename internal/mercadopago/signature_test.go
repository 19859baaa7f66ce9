package mercadopago_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mercadopago"
	"github.com/agendei/agendei/internal/mercadopago/mptest"
)

func TestManifestFollowsTheDocumentedTemplate(t *testing.T) {
	if got := mercadopago.Manifest("123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", "1742505638683"); got !=
		"id:123456;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638683;" {
		t.Fatalf("manifest %q", got)
	}
	// An alphanumeric data.id is signed lowercased; a missing part is left out.
	if got := mercadopago.Manifest("ORD01JQ4S4KY8HWQ6NA5PXB65B3D3", "", "1"); got != "id:ord01jq4s4ky8hwq6na5pxb65b3d3;ts:1;" {
		t.Fatalf("manifest %q", got)
	}
}

func TestVerify(t *testing.T) {
	const secret = "9c3c6bd5a1f84a0f8b1e2d3c4b5a69788796a5b4c3d2e1f0"
	now := time.Date(2026, 11, 26, 13, 0, 0, 0, time.UTC)
	ts := strconv.FormatInt(now.Unix(), 10)
	good := "ts=" + ts + ",v1=" + mptest.Sign(secret, "1310000123", "req-1", ts)
	if err := mercadopago.Verify(secret, good, "1310000123", "req-1", now); err != nil {
		t.Fatalf("a good signature: %v", err)
	}
	// The header's parts in another order, with spaces.
	if err := mercadopago.Verify(secret, " v1="+mptest.Sign(secret, "1310000123", "req-1", ts)+" , ts="+ts, "1310000123", "req-1", now); err != nil {
		t.Fatalf("reordered: %v", err)
	}
	// ts in milliseconds is read as such.
	ms := strconv.FormatInt(now.UnixMilli(), 10)
	if err := mercadopago.Verify(secret, "ts="+ms+",v1="+mptest.Sign(secret, "1310000123", "req-1", ms), "1310000123", "req-1", now); err != nil {
		t.Fatalf("milliseconds: %v", err)
	}
	// The fake and the package sign alike (two independent writings of the documentation).
	if mptest.Sign(secret, "ABC1", "r", ts) != mercadopago.Sign(secret, "abc1", "r", ts) {
		t.Fatal("the fake and the package sign differently")
	}
	for name, c := range map[string]struct {
		header, id, req string
	}{
		"another payment": {good, "1310000124", "req-1"},
		"another request": {good, "1310000123", "req-2"},
		"another secret":  {"ts=" + ts + ",v1=" + mptest.Sign("other-secret-other", "1310000123", "req-1", ts), "1310000123", "req-1"},
		"another ts":      {"ts=" + strconv.FormatInt(now.Unix()-1, 10) + ",v1=" + mptest.Sign(secret, "1310000123", "req-1", ts), "1310000123", "req-1"},
		"no v1":           {"ts=" + ts, "1310000123", "req-1"},
		"not hex":         {"ts=" + ts + ",v1=zz", "1310000123", "req-1"},
		"empty":           {"", "1310000123", "req-1"},
		"data.id dropped": {good, "", "req-1"},
	} {
		if err := mercadopago.Verify(secret, c.header, c.id, c.req, now); !errors.Is(err, mercadopago.ErrSignature) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A notification without data.id is signed without that part, as the
	// documentation's rule says ("if a value is not present, remove it").
	noID := "ts=" + ts + ",v1=" + mptest.Sign(secret, "", "req-1", ts)
	if err := mercadopago.Verify(secret, noID, "", "req-1", now); err != nil {
		t.Fatalf("signed without data.id: %v", err)
	}
	if mercadopago.Manifest("", "req-1", ts) != "request-id:req-1;ts:"+ts+";" {
		t.Fatalf("manifest without data.id: %q", mercadopago.Manifest("", "req-1", ts))
	}
	// Signed right but outside the 5-minute window, either way.
	for _, at := range []time.Time{now.Add(-mercadopago.SignatureWindow - time.Second), now.Add(mercadopago.SignatureWindow + time.Second)} {
		old := strconv.FormatInt(at.Unix(), 10)
		if err := mercadopago.Verify(secret, "ts="+old+",v1="+mptest.Sign(secret, "1", "r", old), "1", "r", now); !errors.Is(err, mercadopago.ErrStale) {
			t.Errorf("ts %s: %v", at, err)
		}
	}
}

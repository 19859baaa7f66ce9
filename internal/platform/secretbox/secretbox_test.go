package secretbox_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/secretbox"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, secretbox.KeySize) }

func mustBox(t *testing.T, keys ...[]byte) *secretbox.Box {
	t.Helper()
	b, err := secretbox.New(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSecretbox_SealsAndOpensWithTheSameKeyAndContext(t *testing.T) {
	b := mustBox(t, key(1))
	sealed, err := b.Seal("EAAG-token", "owner-1:whatsapp.token")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "EAAG") {
		t.Fatalf("sealed value shows the secret: %s", sealed)
	}
	if !strings.HasPrefix(sealed, "v1."+secretbox.KeyID(key(1))+".") {
		t.Fatalf("sealed value does not name its version and key: %s", sealed)
	}
	got, err := b.Open(sealed, "owner-1:whatsapp.token")
	if err != nil || got != "EAAG-token" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	again, _ := b.Seal("EAAG-token", "owner-1:whatsapp.token")
	if again == sealed {
		t.Fatal("two seals of one value are equal: the nonce is not random")
	}
}

func TestSecretbox_RefusesTamperWrongKeyAndWrongContext(t *testing.T) {
	b := mustBox(t, key(1))
	sealed, _ := b.Seal("segredo", "owner-1:whatsapp.app_secret")
	raw, _ := base64.RawURLEncoding.DecodeString(sealed[strings.LastIndex(sealed, ".")+1:])
	raw[len(raw)-1] ^= 1
	tampered := sealed[:strings.LastIndex(sealed, ".")+1] + base64.RawURLEncoding.EncodeToString(raw)
	cases := map[string]struct {
		box     *secretbox.Box
		sealed  string
		context string
	}{
		"tampered byte":          {b, tampered, "owner-1:whatsapp.app_secret"},
		"another owner's row":    {b, sealed, "owner-2:whatsapp.app_secret"},
		"another field":          {b, sealed, "owner-1:whatsapp.token"},
		"wrong key":              {mustBox(t, key(2)), sealed, "owner-1:whatsapp.app_secret"},
		"key id swapped":         {mustBox(t, key(2), key(1)), strings.Replace(sealed, secretbox.KeyID(key(1)), secretbox.KeyID(key(2)), 1), "owner-1:whatsapp.app_secret"},
		"not a sealed value":     {b, "segredo", "owner-1:whatsapp.app_secret"},
		"unknown format version": {b, "v9" + sealed[2:], "owner-1:whatsapp.app_secret"},
		"truncated":              {b, sealed[:len(sealed)-20], "owner-1:whatsapp.app_secret"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got, err := c.box.Open(c.sealed, c.context); !errors.Is(err, secretbox.ErrOpen) {
				t.Fatalf("Open = %q, %v; want ErrOpen", got, err)
			}
		})
	}
}

func TestSecretbox_RotationOpensOldValuesAndSealsWithTheNewKey(t *testing.T) {
	old := mustBox(t, key(1))
	sealed, _ := old.Seal("token-antigo", "ctx")
	rotated := mustBox(t, key(2), key(1))
	if got, err := rotated.Open(sealed, "ctx"); err != nil || got != "token-antigo" {
		t.Fatalf("rotated box cannot open an old value: %q, %v", got, err)
	}
	if !rotated.Stale(sealed) {
		t.Fatal("a value sealed by the old key is not reported stale")
	}
	fresh, _ := rotated.Seal("token-novo", "ctx")
	if rotated.Stale(fresh) || !strings.Contains(fresh, secretbox.KeyID(key(2))) {
		t.Fatalf("new values are not sealed with the first key: %s", fresh)
	}
	if _, err := old.Open(fresh, "ctx"); !errors.Is(err, secretbox.ErrOpen) {
		t.Fatal("the old box opened a value sealed by a key it does not have")
	}
}

func TestSecretbox_ParseReadsTheConfiguration(t *testing.T) {
	k1, _ := secretbox.NewKey()
	k2, _ := secretbox.NewKey()
	b, err := secretbox.Parse(" " + k2 + " , " + strings.TrimRight(k1, "=") + ",")
	if err != nil {
		t.Fatal(err)
	}
	raw1, _ := base64.StdEncoding.DecodeString(k1)
	sealedByK1, _ := mustBox(t, raw1).Seal("x", "c")
	if got, err := b.Open(sealedByK1, "c"); err != nil || got != "x" {
		t.Fatalf("second configured key does not open: %q %v", got, err)
	}
	for _, bad := range []string{"", "não-é-base64", base64.StdEncoding.EncodeToString([]byte("curta")), k1 + "," + k1} {
		if _, err := secretbox.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted a bad configuration", bad)
		}
	}
}

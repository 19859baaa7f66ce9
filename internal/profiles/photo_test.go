package profiles_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/server/servertest"
)

func pngBytes(t *testing.T, w, h int, alpha uint8) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.NRGBA{R: uint8(x), G: 120, B: 200, A: alpha})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A JPEG with an EXIF APP1 segment carrying a GPS marker, to prove it is dropped.
func jpegWithExif(t *testing.T) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 40, 30)), nil); err != nil {
		t.Fatal(err)
	}
	raw := b.Bytes()
	exif := append([]byte{0xFF, 0xE1, 0x00, 0x16}, []byte("Exif\x00\x00GPSLatitude-23.5")...)
	return append(append(append([]byte{}, raw[:2]...), exif...), raw[2:]...)
}

func TestPhoto_AcceptsImagesByContentAndReencodesThem(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		c.Do("PUT", "/api/profile", form("ana"))

		// A big opaque PNG becomes a JPEG of at most 512 px.
		r := c.Upload("/api/profile/photo", "photo", "foto.png", pngBytes(t, 1200, 600, 255))
		if r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var up struct{ PhotoURL string }
		r.JSON(t, &up)
		if !strings.HasPrefix(up.PhotoURL, "/files/profile-photos/") || !strings.Contains(up.PhotoURL, "/profile.jpg?v=") {
			t.Fatalf("url %q", up.PhotoURL)
		}
		img := c.Do("GET", strings.Split(up.PhotoURL, "?")[0], nil)
		if img.StatusCode != 200 || img.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("serve: %d %v", img.StatusCode, img.Header)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Body))
		if err != nil || cfg.Width != 512 || cfg.Height != 256 {
			t.Fatalf("stored size %v %v", cfg, err)
		}
		// The public page shows it.
		var pub struct{ PhotoURL string }
		e.Client().Do("GET", "/api/public/profiles/ana", nil).JSON(t, &pub)
		if pub.PhotoURL != up.PhotoURL {
			t.Fatalf("public photo %q", pub.PhotoURL)
		}

		// A transparent PNG stays PNG and replaces the JPEG.
		c.Upload("/api/profile/photo", "photo", "x.webp", pngBytes(t, 50, 50, 100)).JSON(t, &up)
		if !strings.Contains(up.PhotoURL, "profile.png") {
			t.Fatalf("url %q", up.PhotoURL)
		}
		jpgs, _ := filepath.Glob(filepath.Join(e.Config.DataDir, "files", "profile-photos", "*", "profile.jpg"))
		if len(jpgs) != 0 {
			t.Fatal("the old photo must be replaced")
		}

		// EXIF/GPS never survives.
		c.Upload("/api/profile/photo", "photo", "gps.jpg", jpegWithExif(t)).JSON(t, &up)
		stored := c.Do("GET", strings.Split(up.PhotoURL, "?")[0], nil)
		if bytes.Contains(stored.Body, []byte("GPSLatitude")) || bytes.Contains(stored.Body, []byte("Exif")) {
			t.Fatal("metadata kept")
		}
	})
}

func TestPhoto_RefusesNonImagesAndFilesOver5MB(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		r := c.Upload("/api/profile/photo", "photo", "foto.png", []byte("apenas texto, renomeado para .png\n"))
		if r.StatusCode != 400 || r.Err(t).Error.Message != "Por favor, selecione uma imagem válida (JPEG, PNG, WebP ou GIF)." {
			t.Fatalf("renamed txt: %d %s", r.StatusCode, r.Body)
		}
		big := append(pngBytes(t, 10, 10, 255), make([]byte, 6<<20)...)
		r = c.Upload("/api/profile/photo", "photo", "grande.png", big)
		if r.StatusCode != 413 || r.Err(t).Error.Message != "Por favor, selecione uma imagem menor que 5MB." {
			t.Fatalf("6 MB: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestPhoto_AccountDeletionRemovesIt(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		c.Upload("/api/profile/photo", "photo", "f.png", pngBytes(t, 20, 20, 255))
		dir := filepath.Join(e.Config.DataDir, "files", "profile-photos")
		if files, _ := filepath.Glob(filepath.Join(dir, "*", "*")); len(files) != 1 {
			t.Fatalf("stored: %v", files)
		}
		c.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"})
		if files, _ := filepath.Glob(filepath.Join(dir, "*", "*")); len(files) != 0 {
			t.Fatalf("left behind: %v", files)
		}
		_ = os.RemoveAll(dir)
	})
}

// Issue 12: a 232 KB progressive 4:4:4 JPEG of 6000×6600 passed the old 5 MB
// and 40 MP checks and took ~570 MB to decode. Its header is enough to refuse it.
func TestPhoto_RefusesLargeDimensionsBeforeDecoding(t *testing.T) {
	bomb := profiles.CraftJPEG(6000, 6600, 3, true)
	wide := profiles.CraftJPEG(profiles.MaxPhotoSide+8, 100, 1, false) // few pixels, too wide
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		const msg = "A imagem tem dimensões grandes demais (máximo de 4096 pixels de lado e 16 megapixels). Reduza a foto e tente novamente."
		for name, data := range map[string][]byte{"6000x6600.jpg": bomb, "larga.jpg": wide} {
			r := c.Upload("/api/profile/photo", "photo", name, data)
			if r.StatusCode != 400 || r.Err(t).Error.Code != "image_too_large" || r.Err(t).Error.Message != msg {
				t.Fatalf("%s (%d bytes): %d %s", name, len(data), r.StatusCode, r.Body)
			}
		}
		var p struct{ PhotoURL string }
		c.Do("GET", "/api/profile", nil).JSON(t, &p)
		if p.PhotoURL != "" {
			t.Fatalf("stored %q", p.PhotoURL)
		}
	})
}

func TestPhoto_UploadsAreLimitedPerAccount(t *testing.T) {
	img := pngBytes(t, 4, 4, 255)
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ana, bia := e.Client(), e.Client()
		ana.Signup("Ana", "ana@example.com", "segredo1", "gato")
		bia.Signup("Bia", "bia@example.com", "segredo1", "gato")
		for i := range 10 {
			if r := ana.Upload("/api/profile/photo", "photo", "f.png", img); r.StatusCode != 200 {
				t.Fatalf("upload %d: %d %s", i+1, r.StatusCode, r.Body)
			}
		}
		r := ana.Upload("/api/profile/photo", "photo", "f.png", img)
		if r.StatusCode != 429 || !strings.HasPrefix(r.Err(t).Error.Message, "Muitas tentativas. Aguarde") || r.Header.Get("Retry-After") == "" {
			t.Fatalf("11th upload: %d %s %v", r.StatusCode, r.Body, r.Header)
		}
		// Another account is not affected, and the window passes.
		if r := bia.Upload("/api/profile/photo", "photo", "f.png", img); r.StatusCode != 200 {
			t.Fatalf("other account: %d %s", r.StatusCode, r.Body)
		}
		e.Clock.Advance(time.Hour)
		ana.Login("ana@example.com", "segredo1")
		if r := ana.Upload("/api/profile/photo", "photo", "f.png", img); r.StatusCode != 200 {
			t.Fatalf("after an hour: %d %s", r.StatusCode, r.Body)
		}
	})
}

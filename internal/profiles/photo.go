package profiles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/gif" // registers the GIF decoder
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"path"
	"strings"
	"time"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the WebP decoder

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/files"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

const (
	// MaxPhotoBytes is the upload limit (SPEC §5: 5 MB).
	MaxPhotoBytes = 5 << 20
	// MaxPhotoSide and MaxPhotoPixels are read from the header (DecodeConfig)
	// and refused before anything is decoded. The file size says little about
	// the cost of decoding: a 232 KB progressive 4:4:4 JPEG of 6000×6600 took
	// ~570 MB of heap to decode. Decoding costs up to ~15 bytes a pixel (a
	// progressive 4:4:4 JPEG keeps every DCT coefficient as an int32 besides
	// the 3 bytes a pixel of the picture), so 16 MP is at most ~240 MB, plus
	// ~64 MB for the scaler's intermediate rows (512 × 4096 × 32 bytes); most
	// photos (baseline 4:2:0, PNG) cost 1.5–8 bytes a pixel. A profile
	// photo is stored at photoSide px; 4096 px a side and 16 MP take every
	// phone camera's usual 12 MP photo (4032×3024) and refuse what no
	// profile photo needs.
	MaxPhotoSide   = 4096
	MaxPhotoPixels = 16_000_000
	// photoSide is the largest side of the stored photo: plenty for the pages.
	photoSide = 512
)

// decodeSlots lets one photo be decoded at a time in the whole process, so
// concurrent uploads wait instead of multiplying the memory above. Uploads are
// rare (and limited per account by rulePhotoUser); a decode takes well under
// a second.
var decodeSlots = make(chan struct{}, 1)

// rulePhotoUser limits uploads per account, counted across instances in the
// database, refused uploads included.
var rulePhotoUser = ratelimit.Rule{Name: "photo:user", Max: 10, Window: time.Hour}

var (
	errPhotoType  = httpx.NewError(http.StatusBadRequest, "invalid_file_type", "Por favor, selecione uma imagem válida (JPEG, PNG, WebP ou GIF).")
	errPhotoLarge = httpx.NewError(http.StatusRequestEntityTooLarge, "file_too_large", "Por favor, selecione uma imagem menor que 5MB.")
	errPhotoSize  = httpx.NewError(http.StatusBadRequest, "image_too_large", fmt.Sprintf(
		"A imagem tem dimensões grandes demais (máximo de %d pixels de lado e %d megapixels). Reduza a foto e tente novamente.",
		MaxPhotoSide, MaxPhotoPixels/1_000_000))
)

// ProcessPhoto checks an upload by its bytes (not its name), reads its
// dimensions from the header and refuses big ones, then decodes it (one at a
// time in the process; waiting ends with ctx) and re-encodes it at most
// photoSide pixels a side. Re-encoding drops every piece of metadata (EXIF,
// GPS position). Opaque images become JPEG, images with transparency PNG. It
// returns the bytes and the file extension.
func ProcessPhoto(ctx context.Context, data []byte) ([]byte, string, error) {
	if len(data) > MaxPhotoBytes {
		return nil, "", errPhotoLarge
	}
	switch http.DetectContentType(data) {
	case "image/jpeg", "image/png", "image/gif", "image/webp":
	default:
		return nil, "", errPhotoType
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", errPhotoType
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, "", errPhotoType
	}
	if cfg.Width > MaxPhotoSide || cfg.Height > MaxPhotoSide || cfg.Width*cfg.Height > MaxPhotoPixels {
		return nil, "", errPhotoSize
	}
	dst, err := decodeScaled(ctx, data)
	if err != nil {
		return nil, "", err
	}
	var out bytes.Buffer
	if dst.Opaque() {
		if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 85}); err != nil {
			return nil, "", err
		}
		return out.Bytes(), "jpg", nil
	}
	if err := png.Encode(&out, dst); err != nil {
		return nil, "", err
	}
	return out.Bytes(), "png", nil
}

// decodeScaled waits for the decode slot, decodes the image and scales it to
// at most photoSide pixels a side; the full-size picture is garbage once it
// returns. The slot is given back even if a decoder panics (the server
// recovers the request), so uploads never stall behind a lost slot.
func decodeScaled(ctx context.Context, data []byte) (*image.RGBA, error) {
	select {
	case decodeSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-decodeSlots }()
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, errPhotoType
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > photoSide || h > photoSide {
		if w >= h {
			w, h = photoSide, max(1, h*photoSide/w)
		} else {
			w, h = max(1, w*photoSide/h), photoSide
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst, nil
}

// PhotoKey is where an owner's photo lives.
func PhotoKey(userID, ext string) string {
	return fmt.Sprintf("profile-photos/%s/profile.%s", userID, ext)
}

// SetPhoto stores a processed photo, replaces any old one and records its URL.
func (s *Service) SetPhoto(ctx context.Context, store files.Store, userID string, data []byte) (string, error) {
	img, ext, err := ProcessPhoto(ctx, data)
	if err != nil {
		return "", err
	}
	if err := store.Put(ctx, PhotoKey(userID, ext), img); err != nil {
		return "", err
	}
	for _, other := range []string{"jpg", "png"} {
		if other != ext {
			if err := store.Delete(ctx, PhotoKey(userID, other)); err != nil {
				return "", err
			}
		}
	}
	url := fmt.Sprintf("/files/%s?v=%d", PhotoKey(userID, ext), s.Clock.Now().Unix())
	if _, err := s.DB.ExecContext(ctx, `UPDATE profiles SET photo_url = ?, updated_at = ? WHERE id = ?`, url, s.Clock.Now(), userID); err != nil {
		return "", err
	}
	return url, nil
}

// DeletePhotos removes every stored photo of an owner (account deletion).
func DeletePhotos(ctx context.Context, store files.Store, userID string) error {
	var errs []error
	for _, ext := range []string{"jpg", "png"} {
		errs = append(errs, store.Delete(ctx, PhotoKey(userID, ext)))
	}
	return errors.Join(errs...)
}

// PhotoHandlers serves the upload and the stored photos.
type PhotoHandlers struct {
	Svc     *Service
	Store   files.Store
	Auth    *auth.Handlers
	Limiter *ratelimit.Limiter // uploads per account (rulePhotoUser)
}

// Register adds the routes.
func (h *PhotoHandlers) Register(mux *http.ServeMux) {
	mux.Handle("POST /api/profile/photo", h.Auth.RequireUser(httpx.Handle(h.upload)))
	mux.HandleFunc("GET /files/profile-photos/{user}/{name}", h.serve)
}

func (h *PhotoHandlers) upload(w http.ResponseWriter, r *http.Request) error {
	// Counted before the body is read: a refused upload costs a row, not a decode.
	if err := h.Limiter.Check(r.Context(), rulePhotoUser, auth.UserID(r.Context())); err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxPhotoBytes+64<<10)
	file, _, err := r.FormFile("photo")
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errPhotoLarge
		}
		return httpx.Validation("Selecione uma imagem para enviar.")
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, MaxPhotoBytes+1))
	if err != nil {
		return errPhotoLarge
	}
	url, err := h.Svc.SetPhoto(r.Context(), h.Store, auth.UserID(r.Context()), data)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"photoUrl": url})
	return nil
}

func (h *PhotoHandlers) serve(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name != "profile.jpg" && name != "profile.png" {
		http.NotFound(w, r)
		return
	}
	key := path.Join("profile-photos", r.PathValue("user"), name)
	f, err := h.Store.Open(r.Context(), key)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	ct := "image/jpeg"
	if strings.HasSuffix(name, ".png") {
		ct = "image/png"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=86400")
	http.ServeContent(w, r, name, time.Time{}, f)
}

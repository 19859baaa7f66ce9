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
)

const (
	// MaxPhotoBytes is the upload limit (SPEC §5: 5 MB).
	MaxPhotoBytes = 5 << 20
	// maxPixels refuses decompression bombs before decoding them.
	maxPixels = 40_000_000
	// photoSide is the largest side of the stored photo: plenty for the pages.
	photoSide = 512
)

var (
	errPhotoType  = httpx.NewError(http.StatusBadRequest, "invalid_file_type", "Por favor, selecione uma imagem válida (JPEG, PNG, WebP ou GIF).")
	errPhotoLarge = httpx.NewError(http.StatusRequestEntityTooLarge, "file_too_large", "Por favor, selecione uma imagem menor que 5MB.")
	errPhotoSize  = httpx.NewError(http.StatusBadRequest, "invalid_file_type", "A imagem tem dimensões grandes demais. Envie uma foto menor.")
)

// ProcessPhoto checks an upload by its bytes (not its name), decodes it and
// re-encodes it at most photoSide pixels a side. Re-encoding drops every
// piece of metadata (EXIF, GPS position). Opaque images become JPEG, images
// with transparency PNG. It returns the bytes and the file extension.
func ProcessPhoto(data []byte) ([]byte, string, error) {
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
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels {
		return nil, "", errPhotoSize
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", errPhotoType
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

// PhotoKey is where an owner's photo lives.
func PhotoKey(userID, ext string) string {
	return fmt.Sprintf("profile-photos/%s/profile.%s", userID, ext)
}

// SetPhoto stores a processed photo, replaces any old one and records its URL.
func (s *Service) SetPhoto(ctx context.Context, store files.Store, userID string, data []byte) (string, error) {
	img, ext, err := ProcessPhoto(data)
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
	Svc   *Service
	Store files.Store
	Auth  *auth.Handlers
}

// Register adds the routes.
func (h *PhotoHandlers) Register(mux *http.ServeMux) {
	mux.Handle("POST /api/profile/photo", h.Auth.RequireUser(httpx.Handle(h.upload)))
	mux.HandleFunc("GET /files/profile-photos/{user}/{name}", h.serve)
}

func (h *PhotoHandlers) upload(w http.ResponseWriter, r *http.Request) error {
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

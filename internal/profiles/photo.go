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
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

const (
	// MaxPhotoBytes is the upload limit (SPEC §5: 5 MB).
	MaxPhotoBytes = 5 << 20
	// MaxPhotoSide and MaxPhotoPixels are read from the header (DecodeConfig)
	// and refused before anything is decoded: 4096 px a side and 16 MP take
	// every phone camera's usual 12 MP photo (4032×3024) and refuse what no
	// profile photo needs. The file size says little about the cost of
	// decoding: a 232 KB progressive 4:4:4 JPEG of 6000×6600 took ~570 MB.
	MaxPhotoSide   = 4096
	MaxPhotoPixels = 16_000_000
	// MaxDecodeBytes bounds what decoding may hold, estimated from the header
	// (decodeCost): a baseline JPEG costs 1.5–3 bytes a pixel, so a 16 MP one
	// passes, but Go keeps every DCT coefficient of a progressive JPEG as an
	// int32 (4 bytes a pixel a component, ~15 bytes a pixel for 4:4:4), which
	// is refused past ~4 MP instead of costing 240 MB.
	MaxDecodeBytes = 64 << 20
	// photoSide is the largest side of the stored photo: plenty for the pages.
	photoSide = 512
	// scaleSide is the largest side the high-quality scaler reads from: its
	// intermediate rows cost photoSide × source height × 32 bytes, so a
	// larger source is first halved (or less) by a bilinear pass that
	// allocates nothing but its 16 MB result.
	scaleSide = 2 * 1024
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
	errAccountGone = httpx.NewError(http.StatusUnauthorized, "unauthorized", "Sessão inválida. Faça login novamente.")
	errPhotoCost   = httpx.NewError(http.StatusBadRequest, "image_too_large",
		"Esta imagem é pesada demais para processarmos. Salve-a como JPEG comum ou reduza o tamanho e tente novamente.")
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
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", errPhotoType
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, "", errPhotoType
	}
	if cfg.Width > MaxPhotoSide || cfg.Height > MaxPhotoSide || cfg.Width*cfg.Height > MaxPhotoPixels {
		return nil, "", errPhotoSize
	}
	if decodeCost(data, format, cfg.Width, cfg.Height) > MaxDecodeBytes {
		return nil, "", errPhotoCost
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
	if b := src.Bounds(); b.Dx() > scaleSide || b.Dy() > scaleSide {
		mid := image.NewRGBA(fit(b, scaleSide))
		xdraw.ApproxBiLinear.Scale(mid, mid.Bounds(), src, b, draw.Src, nil)
		src = mid
	}
	dst := image.NewRGBA(fit(src.Bounds(), photoSide))
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst, nil
}

// fit is b's size shrunk, keeping its shape, to at most side pixels a side.
func fit(b image.Rectangle, side int) image.Rectangle {
	w, h := b.Dx(), b.Dy()
	if w > side || h > side {
		if w >= h {
			w, h = side, max(1, h*side/w)
		} else {
			w, h = max(1, w*side/h), side
		}
	}
	return image.Rect(0, 0, w, h)
}

// decodeCost estimates from the header how many bytes Go's decoder holds for
// a w×h image of this format: the decoded picture, and for a progressive
// JPEG every coefficient too. It errs high where the header says less.
func decodeCost(data []byte, format string, w, h int) int64 {
	px := int64(w) * int64(h)
	switch format {
	case "jpeg":
		share, progressive, ok := jpegLayout(data)
		if !ok {
			return px * 15
		}
		perPixel := share // the YCbCr (or grey, CMYK) picture: 1 byte a sample
		if progressive {
			perPixel += 4 * share // an int32 for every coefficient kept between scans
		}
		return int64(float64(px) * perPixel)
	case "png":
		perPixel := int64(4)
		if len(data) > 28 && data[24] == 16 { // IHDR bit depth: 16-bit samples
			perPixel = 8
		}
		if len(data) > 28 && data[28] == 1 { // Adam7: the passes besides the picture
			perPixel *= 2
		}
		return px * perPixel
	case "gif":
		return px // the first frame, one palette index a pixel
	default: // webp: YCbCr with alpha, or NRGBA
		return px * 4
	}
}

// jpegLayout reads a JPEG's frame header: the samples a pixel its components
// add up to (3 for 4:4:4, 1.5 for 4:2:0, 1 for grey) and whether it is
// progressive.
func jpegLayout(data []byte) (share float64, progressive, ok bool) {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return 0, false, false
		}
		marker := data[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		body := data[i+4 : min(len(data), i+2+n)]
		switch marker {
		case 0xC0, 0xC1, 0xC2: // the frames Go decodes: baseline, extended, progressive
			if len(body) < 6 || len(body) < 6+3*int(body[5]) {
				return 0, false, false
			}
			comps := int(body[5])
			var hmax, vmax int
			for c := range comps {
				hv := body[7+3*c]
				hmax, vmax = max(hmax, int(hv>>4)), max(vmax, int(hv&15))
			}
			if hmax == 0 || vmax == 0 {
				return 0, false, false
			}
			for c := range comps {
				hv := body[7+3*c]
				share += float64(int(hv>>4)*int(hv&15)) / float64(hmax*vmax)
			}
			return share, marker == 0xC2, true
		case 0xDA, 0xD9: // scan data or the end before a frame header
			return 0, false, false
		}
		i += 2 + n
	}
	return 0, false, false
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
	err = s.DB.OwnerExec(ctx, userID, db.ErrOwnerGone, `UPDATE profiles SET photo_url = ?, updated_at = ? WHERE id = ?`, url, s.Clock.Now(), userID)
	if err != nil && !errors.Is(err, db.ErrOwnerGone) {
		return "", err
	}
	if err != nil {
		// The account was deleted while this upload was under way (its token
		// passed the check just before): the file must not outlive it. The
		// deletion removes photos after the row, so whichever runs last removes it.
		if err := DeletePhotos(context.WithoutCancel(ctx), store, userID); err != nil {
			return "", err
		}
		return "", errAccountGone
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
	Memo    *memo.Cache        // link preview cards, kept while the profile is unchanged (nil: drawn each time)
}

// Register adds the routes.
func (h *PhotoHandlers) Register(mux *http.ServeMux) {
	mux.Handle("POST /api/profile/photo", h.Auth.RequireUser(httpx.Handle(h.upload)))
	mux.HandleFunc("GET /files/profile-photos/{user}/{name}", h.serve)
	mux.Handle("GET /api/public/profiles/{username}/card.jpg", h.Memo.Public("card", NormalizeUsername, httpx.Handle(h.card)))
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

package profiles

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"net/http"
	"path"
	"strings"
	"sync"
	"unicode"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/agendei/agendei/internal/team"
)

// Preview is what a shared link to the public page shows in WhatsApp,
// Instagram or Facebook before anyone opens it: Open Graph and Twitter
// tags in the page's HTML, and a card image.
type Preview struct {
	Username    string
	Name        string
	Area        string
	Description string
	PhotoURL    string
	// Professional names the practice's one active professional with
	// their council registration, "Ana Souza, Psicóloga — CRP 06/12345",
	// for the preview's description (the CFP's code, art. 20: full name
	// and CRP in any publicity); empty with several professionals or
	// when the one has no council.
	Professional string
	userID       string
}

// PreviewOf is the preview of the public page at a username; an unknown
// username is errProfileNotFound ('Perfil não encontrado').
func (s *Service) PreviewOf(ctx context.Context, raw string) (*Preview, error) {
	username := NormalizeUsername(raw)
	if username == "" {
		return nil, errProfileNotFound
	}
	var p Preview
	err := s.DB.QueryRowContext(ctx, `SELECT id, public_username, name, area, description, photo_url FROM profiles WHERE public_username = ?`, username).
		Scan(&p.userID, &p.Username, &p.Name, &p.Area, &p.Description, &p.PhotoURL)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errProfileNotFound
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT name, specialization, council, council_uf, council_number FROM professionals WHERE user_id = ? AND active = TRUE LIMIT 2`, p.userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name, spec, council, uf, number string
		if err := rows.Scan(&name, &spec, &council, &uf, &number); err != nil {
			return nil, err
		}
		if n++; n == 1 && team.CouncilLabel(council, uf, number) != "" {
			p.Professional = name + ", " + Headline(spec, council, uf, number)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if n > 1 {
		p.Professional = ""
	}
	return &p, nil
}

// IsNotFound reports whether err is the unknown-profile answer.
func IsNotFound(err error) bool { return errors.Is(err, errProfileNotFound) }

// Card sizes: the 1.91:1 image WhatsApp, Facebook and X show large.
const (
	CardWidth  = 1200
	CardHeight = 630
)

var (
	brand      = color.RGBA{0x0f, 0x76, 0x6e, 0xff} // brand-700
	brandLight = color.RGBA{0xcc, 0xfb, 0xf1, 0xff} // brand-100
	brandMid   = color.RGBA{0x99, 0xf6, 0xe4, 0xff} // brand-200
	cardBold   = sync.OnceValues(func() (*opentype.Font, error) {
		return opentype.Parse(gobold.TTF)
	})
	cardRegular = sync.OnceValues(func() (*opentype.Font, error) {
		return opentype.Parse(goregular.TTF)
	})
)

// Card draws the preview image: the owner's photo (cropped to a square) or
// their initials, their name, their area and the invitation to book, on
// the brand's colour, as a JPEG.
func Card(photo image.Image, name, area string) ([]byte, error) {
	bold, err := cardBold()
	if err != nil {
		return nil, err
	}
	regular, err := cardRegular()
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, CardWidth, CardHeight))
	draw.Draw(img, img.Bounds(), image.NewUniform(brand), image.Point{}, draw.Src)

	// The picture: a white-framed square on the left.
	frame := image.Rect(72, 72, 72+486, 72+486)
	draw.Draw(img, frame, image.NewUniform(color.White), image.Point{}, draw.Src)
	inner := frame.Inset(8)
	if photo != nil {
		xdraw.CatmullRom.Scale(img, inner, photo, square(photo.Bounds()), draw.Src, nil)
	} else {
		draw.Draw(img, inner, image.NewUniform(brandLight), image.Point{}, draw.Src)
		if err := centered(img, bold, 200, brand, initials(name), inner); err != nil {
			return nil, err
		}
	}

	// The words: name (up to two lines), area, and the invitation.
	x, width := 622, CardWidth-622-64
	y := 170
	nameFace, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: 64, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer nameFace.Close()
	for _, line := range wrap(nameFace, name, width, 2) {
		write(img, nameFace, color.White, x, y, line)
		y += 76
	}
	areaFace, err := opentype.NewFace(regular, &opentype.FaceOptions{Size: 38, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer areaFace.Close()
	for _, line := range wrap(areaFace, area, width, 2) {
		y += 8
		write(img, areaFace, brandLight, x, y, line)
		y += 44
	}
	small, err := opentype.NewFace(regular, &opentype.FaceOptions{Size: 32, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer small.Close()
	write(img, small, brandMid, x, CardHeight-96, "Agende online · Agendei")

	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: 88}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// square is the centred square of a rectangle.
func square(r image.Rectangle) image.Rectangle {
	side := min(r.Dx(), r.Dy())
	x, y := r.Min.X+(r.Dx()-side)/2, r.Min.Y+(r.Dy()-side)/2
	return image.Rect(x, y, x+side, y+side)
}

// initials are the first letters of the first and last words of a name.
func initials(name string) string {
	words := strings.Fields(name)
	if len(words) == 0 {
		return "A"
	}
	first := []rune(words[0])[:1]
	if len(words) == 1 {
		return strings.ToUpper(string(first))
	}
	last := []rune(words[len(words)-1])[:1]
	return strings.ToUpper(string(first) + string(last))
}

func write(img draw.Image, face font.Face, c color.Color, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func centered(img draw.Image, f *opentype.Font, size float64, c color.Color, s string, in image.Rectangle) error {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return err
	}
	defer face.Close()
	w := font.MeasureString(face, s).Round()
	m := face.Metrics()
	h := (m.Ascent - m.Descent).Round()
	x := in.Min.X + (in.Dx()-w)/2
	y := in.Min.Y + (in.Dy()+h)/2 - m.Descent.Round()/2
	write(img, face, c, x, y, s)
	return nil
}

// wrap breaks text into at most lines lines of width pixels, the last
// ending in "…" when the text does not fit.
func wrap(face font.Face, text string, width, lines int) []string {
	words := strings.FieldsFunc(text, unicode.IsSpace)
	var out []string
	line := ""
	for i, w := range words {
		try := strings.TrimSpace(line + " " + w)
		if font.MeasureString(face, try).Round() <= width {
			line = try
			continue
		}
		if line != "" {
			out = append(out, line)
		}
		line = w
		if len(out) == lines-1 {
			line = strings.Join(words[i:], " ")
			break
		}
	}
	if line != "" {
		out = append(out, line)
	}
	if len(out) > lines {
		out = out[:lines]
	}
	if n := len(out); n > 0 && font.MeasureString(face, out[n-1]).Round() > width {
		r := []rune(out[n-1])
		for len(r) > 0 && font.MeasureString(face, string(r)+"…").Round() > width {
			r = r[:len(r)-1]
		}
		out[n-1] = strings.TrimSpace(string(r)) + "…"
	}
	return out
}

// card serves GET /api/public/profiles/{username}/card.jpg: the preview
// image of a public page. A photo that cannot be read gives the initials
// instead; the image is cached an hour by whoever fetched it, and drawn
// again here only when the owner's data changed (the answer cache: name,
// area and photo are the profile's, whose writes bump its version).
func (h *PhotoHandlers) card(w http.ResponseWriter, r *http.Request) error {
	p, err := h.Svc.PreviewOf(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	var photo image.Image
	if p.PhotoURL != "" {
		photo = h.photo(r.Context(), p)
	}
	out, err := Card(photo, p.Name, p.Area)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write(out)
	return nil
}

// photo reads the owner's stored photo (already scaled to at most 512
// pixels a side when it was uploaded); nil when it cannot be read.
func (h *PhotoHandlers) photo(ctx context.Context, p *Preview) image.Image {
	name := path.Base(strings.SplitN(p.PhotoURL, "?", 2)[0])
	if name != "profile.jpg" && name != "profile.png" {
		return nil
	}
	f, err := h.Store.Open(ctx, path.Join("profile-photos", p.userID, name))
	if err != nil {
		return nil
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

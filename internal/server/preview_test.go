package server_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// A shared link to a public page previews in WhatsApp and Instagram: the
// HTML, read without running JavaScript, carries the profile's Open Graph
// and Twitter tags (escaped), and the card image they point to is a
// 1200×630 JPEG drawn from the photo, or from the initials without one.
func TestLinkPreview_TagsAndCardWithoutJavaScript(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Dona", "dona@example.com", "segredo1", "gato")
		ob := c.Do("POST", "/api/onboarding", map[string]any{"name": `Ana "Souza" <Psi>`, "area": "Psicologia clínica", "publicUsername": "ana-souza", "email": "dona@example.com",
			"services": []map[string]any{{"name": "Sessão", "duration": 50, "priceCents": 15000}},
			"days":     week()})
		if ob.StatusCode >= 300 {
			t.Fatalf("onboarding: %d %s", ob.StatusCode, ob.Body)
		}
		pr := c.Do("PUT", "/api/profile", map[string]any{"name": `Ana "Souza" <Psi>`, "area": "Psicologia clínica", "publicUsername": "ana-souza", "email": "dona@example.com",
			"description": "Atendimento para adultos e casais,\n presencial e online."})
		if pr.StatusCode >= 300 {
			t.Fatalf("profile: %d %s", pr.StatusCode, pr.Body)
		}

		base := e.Server.BaseURL // absolute addresses, as the apps that fetch them need
		for _, p := range []string{"/agende/ana-souza", "/agende/ana-souza/form", "/agende/Ana-Souza/"} {
			r := c.Do("GET", p, nil)
			html := string(r.Body)
			if r.StatusCode != 200 || !strings.Contains(html, `data-page="agende"`) {
				t.Fatalf("%s: %d %s", p, r.StatusCode, html)
			}
			meta := func(attr, name string) string {
				m := regexp.MustCompile(`<meta ` + attr + `="` + regexp.QuoteMeta(name) + `" content="([^"]*)"`).FindStringSubmatch(html)
				if m == nil {
					t.Fatalf("%s: no %s in\n%s", p, name, html)
				}
				return m[1]
			}
			title := "Ana &#34;Souza&#34; &lt;Psi&gt; — Psicologia clínica"
			for name, want := range map[string]string{
				"og:title": title, "og:description": "Atendimento para adultos e casais, presencial e online.",
				"og:url": base + "/agende/ana-souza", "og:locale": "pt_BR", "og:image:width": "1200", "og:image:height": "630",
			} {
				if got := meta("property", name); got != want {
					t.Errorf("%s %s = %q, want %q", p, name, got, want)
				}
			}
			if meta("name", "twitter:card") != "summary_large_image" || meta("name", "twitter:title") != title {
				t.Errorf("%s: twitter tags", p)
			}
			if !strings.Contains(html, "<title>"+title+"</title>") || strings.Count(html, "<title>") != 1 || strings.Contains(html, "<Psi>") {
				t.Errorf("%s: the title must be the profile's, once, escaped:\n%s", p, html)
			}
			if !strings.Contains(html, `<link rel="canonical" href="`+base+`/agende/ana-souza" />`) {
				t.Errorf("%s: canonical", p)
			}
			image := meta("property", "og:image")
			if !strings.HasPrefix(image, base+"/api/public/profiles/ana-souza/card.jpg?v=") {
				t.Fatalf("og:image %q", image)
			}
		}
		card := func() image.Image {
			t.Helper()
			r := c.Do("GET", "/api/public/profiles/ana-souza/card.jpg", nil)
			if r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/jpeg" {
				t.Fatalf("card: %d %v", r.StatusCode, r.Header)
			}
			img, err := jpeg.Decode(bytes.NewReader(r.Body))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
				t.Fatalf("card is %v", b)
			}
			return img
		}
		// Without a photo, the picture's square shows the initials on a light ground.
		if r, _, _, _ := card().At(100, 100).RGBA(); r>>8 < 0xb0 {
			t.Errorf("initials' ground should be light: red %d", r>>8)
		}
		// Drawn once per version of the profile: the next fetch is the kept answer.
		if r := c.Do("GET", "/api/public/profiles/ana-souza/card.jpg", nil); r.Header.Get("X-Agendei-Cache") != "hit" {
			t.Errorf("the card is drawn again for an unchanged profile: %v", r.Header)
		}
		// With a photo (pure red), the square shows it.
		photo := image.NewRGBA(image.Rect(0, 0, 300, 200))
		for x := range 300 {
			for y := range 200 {
				photo.Set(x, y, color.RGBA{0xdd, 0x10, 0x10, 0xff})
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, photo); err != nil {
			t.Fatal(err)
		}
		if r := c.Upload("/api/profile/photo", "photo", "foto.png", buf.Bytes()); r.StatusCode != 200 {
			t.Fatalf("photo: %d %s", r.StatusCode, r.Body)
		}
		if r, g, _, _ := card().At(300, 300).RGBA(); r>>8 < 0xc0 || g>>8 > 0x40 {
			t.Errorf("the photo should fill the square: r=%d g=%d", r>>8, g>>8)
		}

		// A username nobody has: 404, and the page says so without JavaScript.
		for _, p := range []string{"/agende/ninguem", "/agende/ninguem/form"} {
			r := c.Do("GET", p, nil)
			if r.StatusCode != 404 || !strings.Contains(string(r.Body), "Perfil não encontrado") || strings.Contains(string(r.Body), "og:title") {
				t.Errorf("%s: %d %s", p, r.StatusCode, r.Body)
			}
		}
		if r := c.Do("GET", "/api/public/profiles/ninguem/card.jpg", nil); r.StatusCode != 404 {
			t.Errorf("unknown card: %d", r.StatusCode)
		}
	})
}

func week() []map[string]any {
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": d > 0 && d < 6, "start": "08:00", "end": "18:00"})
	}
	return days
}

// Only the embeddable booking form may be framed, by any site; every other
// page keeps refusing framing. That is the widget's exact route, not a
// prefix: /embed/ana/agenda is the owner app (the full build's router), and
// framing it would let any site dress up the owner's screens (clickjacking).
func TestEmbed_OnlyTheWidgetMayBeFramed(t *testing.T) {
	e := servertest.Start(t, db.SQLite)
	c := e.Client()
	for _, p := range []string{"/embed/ana-souza", "/embed/ana-souza/", "/embed/ana-souza?service=s1"} {
		r := c.Do("GET", p, nil)
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors *") || r.Header.Get("X-Frame-Options") != "" || !strings.Contains(string(r.Body), `data-page="agende"`) {
			t.Fatalf("embed %s: %v %s", p, r.Header, r.Body)
		}
	}
	for _, p := range []string{"/", "/agende/ana-souza", "/agende/ana-souza/form", "/dashboard", "/api/public/profiles/ana-souza", "/embedded",
		"/embed/", "/embed", "/embed/ana-souza/anything", "/embed/ana-souza/agenda", "/embed/ana-souza/form", "/embed//ana-souza", "/embed/ana-souza/x.js"} {
		r := c.Do("GET", p, nil)
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || r.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s may be framed: %v", p, r.Header)
		}
	}
}

// Issue 43 §3: a practice of one professional previews with that
// professional's full name and council registration (the CFP's code, art.
// 20: full name and CRP in any publicity), and never with a price; with
// several professionals the description is the practice's own.
func TestLinkPreview_OneProfessionalsCouncilAndNoPrice(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Dona", "dona@example.com", "segredo1", "gato")
		if r := c.Do("PUT", "/api/profile", map[string]any{"name": "Consultório Ana", "area": "Psicologia", "publicUsername": "ana", "email": "dona@example.com", "description": "Terapia para adultos."}); r.StatusCode != 200 {
			t.Fatalf("profile: %d %s", r.StatusCode, r.Body)
		}
		var pro struct{ ID string }
		c.Do("POST", "/api/professionals", map[string]string{"name": "Ana Souza", "specialization": "Psicóloga", "council": "CRP", "councilUf": "SP", "councilNumber": "06/12345"}).JSON(t, &pro)
		if r := c.Do("POST", "/api/services", map[string]any{"name": "Sessão", "duration": 50, "priceCents": 18750, "professionalIds": []string{pro.ID}}); r.StatusCode != 201 {
			t.Fatalf("service: %d %s", r.StatusCode, r.Body)
		}
		c.Do("PUT", "/api/profile/public-page", map[string]bool{"hidePrices": true})
		description := func() (string, string) {
			t.Helper()
			html := string(c.Do("GET", "/agende/ana", nil).Body)
			m := regexp.MustCompile(`<meta property="og:description" content="([^"]*)"`).FindStringSubmatch(html)
			if m == nil {
				t.Fatalf("no og:description in\n%s", html)
			}
			return m[1], html
		}
		got, html := description()
		if want := "Ana Souza, Psicóloga — CRP 06/12345. Terapia para adultos."; got != want {
			t.Errorf("og:description = %q, want %q", got, want)
		}
		if strings.Contains(html, "R$") || strings.Contains(html, "187,50") {
			t.Errorf("a price in the preview:\n%s", html)
		}
		c.Do("POST", "/api/professionals", map[string]string{"name": "Bia Lima", "specialization": "Psicóloga", "council": "CRP", "councilUf": "SP", "councilNumber": "06/54321"})
		if got, _ := description(); got != "Terapia para adultos." {
			t.Errorf("two professionals: og:description = %q", got)
		}
	})
}

package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/profiles"
)

// previewer finds what a shared public page shows before it is opened.
type previewer func(ctx context.Context, username string) (*profiles.Preview, error)

var (
	// agendePage is a public profile page: /agende/{username} and its form.
	agendePage = regexp.MustCompile(`^/agende/([^/]+)(?:/form)?/?$`)
	// pageTitle and pageDescription are the light page's own, replaced by the profile's.
	pageTitle       = regexp.MustCompile(`(?s)<title>.*?</title>`)
	pageDescription = regexp.MustCompile(`<meta name="description"[^>]*>`)
	headTags        = template.Must(template.New("head").Parse(`<title>{{.Title}}</title>
    <meta name="description" content="{{.Description}}" />
    <link rel="canonical" href="{{.URL}}" />
    <meta property="og:type" content="profile" />
    <meta property="og:site_name" content="Agendei" />
    <meta property="og:locale" content="pt_BR" />
    <meta property="og:title" content="{{.Title}}" />
    <meta property="og:description" content="{{.Description}}" />
    <meta property="og:url" content="{{.URL}}" />
    <meta property="og:image" content="{{.Image}}" />
    <meta property="og:image:type" content="image/jpeg" />
    <meta property="og:image:width" content="1200" />
    <meta property="og:image:height" content="630" />
    <meta property="og:image:alt" content="{{.Alt}}" />
    <meta name="twitter:card" content="summary_large_image" />
    <meta name="twitter:title" content="{{.Title}}" />
    <meta name="twitter:description" content="{{.Description}}" />
    <meta name="twitter:image" content="{{.Image}}" />`))
	notFoundTags = `<title>Perfil não encontrado — Agendei</title>
    <meta name="robots" content="noindex" />`
)

// withPreview gives the light page of a public profile its link preview
// (Open Graph and Twitter tags, read by WhatsApp, Instagram and Facebook
// without running JavaScript): the status and the page to send. A username
// nobody has is 404 'Perfil não encontrado'; a database that does not
// answer leaves the page as built (the page itself then says what failed).
func withPreview(r *http.Request, page []byte, find previewer, baseURL string) (int, []byte) {
	m := agendePage.FindStringSubmatch(r.URL.EscapedPath())
	if m == nil || find == nil {
		return http.StatusOK, page
	}
	username, err := url.PathUnescape(m[1])
	if err != nil {
		return http.StatusOK, page
	}
	p, err := find(r.Context(), username)
	if profiles.IsNotFound(err) {
		return http.StatusNotFound, head(page, notFoundTags)
	}
	if err != nil {
		httpx.Logger(r.Context()).Warn("link preview not added", "err", err)
		return http.StatusOK, page
	}
	title := p.Name
	if p.Area != "" {
		title += " — " + p.Area
	}
	description := strings.Join(strings.Fields(p.Description), " ")
	if description == "" {
		description = "Agende seu horário com " + p.Name + " online, a qualquer hora."
	}
	if p.Professional != "" {
		description = p.Professional + ". " + description
	}
	// The image's address changes with what it shows, so previews cached
	// by the apps are drawn again after the owner changes them.
	sum := sha256.Sum256([]byte(p.Name + "\x00" + p.Area + "\x00" + p.PhotoURL))
	base := strings.TrimRight(baseURL, "/")
	var tags bytes.Buffer
	err = headTags.Execute(&tags, map[string]string{
		"Title":       title,
		"Description": clip(description, 200),
		"URL":         base + "/agende/" + url.PathEscape(p.Username),
		"Image":       base + "/api/public/profiles/" + url.PathEscape(p.Username) + "/card.jpg?v=" + hex.EncodeToString(sum[:6]),
		"Alt":         "Agende com " + p.Name,
	})
	if err != nil {
		return http.StatusOK, page
	}
	return http.StatusOK, head(page, tags.String())
}

// head puts tags in place of the page's own title and description.
func head(page []byte, tags string) []byte {
	out := pageDescription.ReplaceAll(page, nil)
	done := false
	out = pageTitle.ReplaceAllFunc(out, func([]byte) []byte {
		done = true
		return []byte(tags)
	})
	if !done {
		out = bytes.Replace(out, []byte("</head>"), []byte(tags+"\n  </head>"), 1)
	}
	return out
}

// clip shortens s to at most n runes, at a word, with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	if i := strings.LastIndexByte(string(r), ' '); i > n/2 {
		return strings.TrimRight(string(r)[:i], " ,.;:") + "…"
	}
	return string(r) + "…"
}

package mail

import (
	"bytes"
	_ "embed"
	htmltemplate "html/template"
	"net/url"
	texttemplate "text/template"
)

// Content is what an e-mail says; Compose lays it out as text and HTML in the
// house style, so each kind of e-mail is a few lines of Go, not a template.
type Content struct {
	Subject    string
	Greeting   string   // "Olá, Ana!"
	Paragraphs []string // plain text; escaped in HTML
	Button     *Link    // optional call to action
	Image      *Image   // optional picture after the paragraphs, an inline part of the message (Message.Inline)
	Buttons    []Link   // optional row of actions of equal weight (a reminder's answers), after the paragraphs
	Details    []Detail // optional label/value table (appointment details)
	Links      []Link   // optional secondary links, after the details (e.g. 'Adicionar ao Google Agenda')
	Footer     string   // small print at the end
}

// Link is a labelled URL.
type Link struct{ Label, URL string }

// Image is a picture in the e-mail's body: the inline part of the message
// with this Content-ID, and the text said in its place.
type Image struct {
	ContentID string // letters, digits, '.', '-', '@'
	Alt       string
	Width     int // in CSS pixels, at most 320 (it shrinks on a narrower card)
}

// Src is the image's address in the HTML (RFC 2392 cid: URL).
func (i Image) Src() htmltemplate.URL { return htmltemplate.URL("cid:" + url.PathEscape(i.ContentID)) }

// Detail is one row of a details table.
type Detail struct{ Label, Value string }

//go:embed templates/layout.html
var layoutHTML string

//go:embed templates/layout.txt
var layoutText string

var (
	htmlTmpl = htmltemplate.Must(htmltemplate.New("html").Parse(layoutHTML))
	textTmpl = texttemplate.Must(texttemplate.New("text").Parse(layoutText))
)

// Compose renders c for one recipient.
func Compose(to string, c Content) (Message, error) {
	var h, t bytes.Buffer
	if err := htmlTmpl.Execute(&h, c); err != nil {
		return Message{}, err
	}
	if err := textTmpl.Execute(&t, c); err != nil {
		return Message{}, err
	}
	return Message{To: to, Subject: c.Subject, HTML: h.String(), Text: t.String()}, nil
}

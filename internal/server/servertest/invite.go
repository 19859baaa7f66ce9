package servertest

import (
	"io"
	"mime/quotedprintable"
	"regexp"
	"strings"
)

// inviteLinkRE finds a professional's invitation link in a message's text.
// The link's path has no "=", so nothing of quoted-printable stands between
// "/convite/" and the token once the text is decoded (a "3D" allowed there
// used to cut the first two characters off a token that began with them).
var inviteLinkRE = regexp.MustCompile(`/convite/([A-Za-z0-9_\-]{20,})`)

// Text is the message as a person reads it: quoted-printable soft line
// breaks and escapes undone (headers pass through unchanged).
func (m Mail) Text() string {
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(m.Raw)))
	if err != nil {
		return strings.ReplaceAll(m.Raw, "=\r\n", "")
	}
	return string(b)
}

// InviteToken is the invitation token a message links to ("" when none).
func (m Mail) InviteToken() string {
	if sub := inviteLinkRE.FindStringSubmatch(m.Text()); sub != nil {
		return sub[1]
	}
	return ""
}

// Invite makes a professional of owner a's team and signs them in as
// themself through the e-mailed invitation (issue 43); it returns the
// professional's id and their client.
func (e *Env) Invite(a *Client, name, email string) (string, *Client) {
	t := e.T
	t.Helper()
	var pro struct{ ID string }
	if r := a.Do("POST", "/api/professionals", map[string]string{"name": name, "specialization": "Psicóloga", "email": email}); r.StatusCode != 201 {
		t.Fatalf("professional: %d %s", r.StatusCode, r.Body)
	}
	var list []struct{ ID, Name string }
	a.Do("GET", "/api/professionals", nil).JSON(t, &list)
	for _, p := range list {
		if p.Name == name {
			pro.ID = p.ID
		}
	}
	if r := a.Do("PUT", "/api/members/"+pro.ID, map[string]string{"email": email}); r.StatusCode != 200 {
		t.Fatalf("invite: %d %s", r.StatusCode, r.Body)
	}
	token := ""
	for _, m := range e.Mails() {
		if strings.Contains(m.Text(), email) {
			if found := m.InviteToken(); found != "" {
				token = found
			}
		}
	}
	if token == "" {
		t.Fatal("no invitation mailed")
	}
	p := e.Client()
	var inv struct{ Practice, Professional, Email string }
	if r := p.Do("GET", "/api/invites/"+token, nil); r.StatusCode != 200 {
		t.Fatalf("invitation page: %d %s", r.StatusCode, r.Body)
	} else {
		r.JSON(t, &inv)
	}
	if inv.Professional != name || inv.Email != email {
		t.Fatalf("invitation shows %+v", inv)
	}
	r := p.Do("POST", "/api/invites/"+token, map[string]string{"password": "senha-propria-1", "recoveryKeyword": "jabuti"})
	if r.StatusCode != 200 {
		t.Fatalf("accept: %d %s", r.StatusCode, r.Body)
	}
	var s struct{ AccessToken string }
	r.JSON(t, &s)
	p.Token = s.AccessToken
	if r := p.Do("POST", "/api/invites/"+token, map[string]string{"password": "outra-senha-2", "recoveryKeyword": "jabuti"}); r.StatusCode != 404 {
		t.Fatalf("an invitation used twice: %d %s", r.StatusCode, r.Body)
	}
	return pro.ID, p
}

package servertest

import "testing"

// A token may begin with any two characters, "3D" among them (one in 4,096
// of them does): the link is read whole, from the decoded text, even when a
// soft line break falls inside it.
func TestMail_InviteTokenIsReadWhole(t *testing.T) {
	const token = "3DkQ9x_-ab12cd34ef56gh78ij90kl12mn34op56qr7"
	raw := "Content-Type: multipart/alternative; boundary=b1\r\n\r\n--b1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"Crie seu acesso: https://agendei.example/convite/" + token[:20] + "=\r\n" + token[20:] + "\r\n" +
		"--b1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<a href=3D\"https://agendei.example/convite/" + token + "\">Criar</a>\r\n--b1--\r\n"
	if got := (Mail{Raw: raw}).InviteToken(); got != token {
		t.Fatalf("token %q, want %q", got, token)
	}
	if got := (Mail{Raw: "Assunto: outro\r\n\r\nnenhum link aqui\r\n"}).InviteToken(); got != "" {
		t.Fatalf("a message without a link gave %q", got)
	}
}

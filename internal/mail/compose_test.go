package mail_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mail"
)

// phoneMail is an e-mail with every part of the layout and the long values
// a real one carries (an address, a link to copy, a row of answers).
func phoneMail(t *testing.T) mail.Message {
	t.Helper()
	m, err := mail.Compose("cliente@example.com", mail.Content{
		Subject:  "Agendamento confirmado: Sessão de fisioterapia em 12/03/2027 às 14:30",
		Greeting: "Olá, Maria Aparecida dos Santos!",
		Paragraphs: []string{"Seu agendamento com Clínica de Fisioterapia Movimento Integral está confirmado. O convite em anexo coloca o horário na sua agenda.",
			// A Pix Copia e Cola: one word of some 150 characters.
			"00020126360014BR.GOV.BCB.PIX0114529982247250215Sinal" + strings.Repeat("0123456789", 9) + "6304ABCD"},
		Image:   &mail.Image{ContentID: "pix-qrcode@agendei", Alt: "QR Code Pix do sinal de R$ 30,00", Width: 240},
		Buttons: []mail.Link{{Label: "Confirmar presença", URL: "http://localhost:8080/r/a"}, {Label: "Remarcar", URL: "http://localhost:8080/r/b"}, {Label: "Cancelar", URL: "http://localhost:8080/r/c"}},
		Details: []mail.Detail{
			{Label: "Profissional", Value: "Dra. Ana Beatriz Figueiredo"},
			{Label: "Endereço", Value: "Avenida Engenheiro Luís Carlos Berrini, 1748, conjunto 1203, Cidade Monções, São Paulo - SP"},
			{Label: "Contato", Value: "atendimento.fisioterapia.movimentointegral@example.com.br"},
		},
		Links:  []mail.Link{{Label: "Adicionar ao Google Agenda", URL: "https://calendar.google.com/x"}},
		Button: &mail.Link{Label: "Cancelar agendamento", URL: "http://localhost:8080/cancel/" + strings.Repeat("k3J9", 16)},
		Footer: "Não pode comparecer? Use o botão acima para cancelar e liberar o horário. Este link é pessoal: não o compartilhe.",
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The card is fluid: no width in the layout is wider than a 360 px phone
// but the card's max-width (it was a fixed 560 px table, cut on the right).
func TestCompose_NoFixedWidthWiderThanAPhone(t *testing.T) {
	html := phoneMail(t).HTML
	for _, m := range regexp.MustCompile(`(?i)(max-width:\s*|min-width:\s*|width:\s*|width=")(\d+)`).FindAllStringSubmatch(html, -1) {
		n, _ := strconv.Atoi(m[2])
		if strings.HasPrefix(strings.ToLower(m[1]), "max-width") && n == 560 {
			continue
		}
		if n > 320 {
			t.Errorf("fixed width %q in the e-mail's HTML", m[0])
		}
	}
	if !strings.Contains(html, "max-width:560px") {
		t.Error("the card lost its max-width on a desktop")
	}
}

// Rendered by Chromium in a 360×780 window, the e-mail scrolls no wider
// than the phone (skipped where no Chromium is installed).
func TestCompose_FitsA360PixelPhone(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("no Chromium to render the e-mail")
	}
	// Headless Chromium opens no window narrower than 500 px, so the e-mail
	// is measured inside a 360×780 frame, as a phone's mail app shows it.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mail.html"), []byte(phoneMail(t).HTML), 0o600); err != nil {
		t.Fatal(err)
	}
	host := `<!DOCTYPE html><html><body><iframe id="f" src="mail.html" width="360" height="780" style="border:0"></iframe><script>
document.getElementById('f').onload = () => { document.body.setAttribute('data-sw', document.getElementById('f').contentDocument.scrollingElement.scrollWidth) }
</script></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "host.html"), []byte(host), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--user-data-dir="+t.TempDir(),
		"--window-size=800,900", "--dump-dom", "file://"+filepath.Join(dir, "host.html")).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`data-sw="(\d+)"`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("no width measured in %.300s", out)
	}
	if w, _ := strconv.Atoi(m[1]); w > 360 {
		t.Errorf("the e-mail scrolls %d px wide on a 360 px phone", w)
	}
}

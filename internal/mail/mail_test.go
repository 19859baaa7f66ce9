package mail_test

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

func message(t *testing.T) mail.Message {
	m, err := mail.Compose("cliente@example.com", mail.Content{
		Subject:    "Agendamento confirmado",
		Greeting:   "Olá, Ana!",
		Paragraphs: []string{"Seu horário está confirmado <b>sem HTML injetado</b>."},
		Details:    []mail.Detail{{Label: "Serviço", Value: "Consulta"}},
		Button:     &mail.Link{Label: "Cancelar", URL: "http://localhost:8080/x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	m.Attachments = []mail.Attachment{{Name: "convite.ics", ContentType: "text/calendar", Data: []byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")}}
	return m
}

func TestSMTP_DeliversToARealServerWithAuth(t *testing.T) {
	srv := smtptest.Start(t)
	srv.User, srv.Pass = "agendei", "s3nha"
	u, _ := url.Parse("smtp://agendei:s3nha@" + srv.Addr)
	s := &mail.SMTP{URL: u, From: "Agendei <nao-responda@agendei.app>"}
	if err := s.Send(context.Background(), message(t)); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages()
	if len(got) != 1 || got[0].To[0] != "cliente@example.com" {
		t.Fatalf("%+v", got)
	}
	data := got[0].Data
	for _, want := range []string{"Subject: Agendamento confirmado", "text/plain", "text/html", "convite.ics", "text/calendar", "&lt;b&gt;sem HTML injetado&lt;/b&gt;"} {
		if !strings.Contains(data, want) {
			t.Errorf("message lacks %q", want)
		}
	}
}

func TestOutbox_WritesOneEmlPerMessage(t *testing.T) {
	dir := t.TempDir()
	o := &mail.Outbox{Dir: dir, From: "Agendei <nao-responda@agendei.app>"}
	for range 2 {
		if err := o.Send(context.Background(), message(t)); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 2 {
		t.Fatalf("%d files", len(files))
	}
	b, _ := os.ReadFile(files[0])
	if !strings.Contains(string(b), "To: <cliente@example.com>") {
		t.Fatalf("%s", b)
	}
}

func TestMailer_FailingServerIsRetriedAndNeverBlocksTheCaller(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		srv := smtptest.Start(t)
		srv.Fail = true
		u, _ := url.Parse("smtp://" + srv.Addr)
		clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
		q := jobs.New(d, clk, slog.New(slog.NewTextHandler(io.Discard, nil)))
		m := mail.NewMailer(q, &mail.SMTP{URL: u, From: "a@agendei.app"})
		ctx := context.Background()
		// Queueing is a database insert: it succeeds while the mail server is failing.
		if err := m.Queue(ctx, d, message(t)); err != nil {
			t.Fatal(err)
		}
		if _, err := q.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if len(srv.Messages()) != 0 {
			t.Fatal("nothing should have been delivered yet")
		}
		srv.Fail = false
		clk.Advance(time.Minute)
		if _, err := q.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if len(srv.Messages()) != 1 {
			t.Fatalf("retry should deliver once, got %d", len(srv.Messages()))
		}
	})
}

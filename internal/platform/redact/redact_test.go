package redact_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/redact"
)

func TestText_HidesEmailsAndPhonesAndKeepsIdsAndDates(t *testing.T) {
	for in, want := range map[string]string{
		"550 5.1.1 <ana.rocha@example.com>: Recipient address rejected":           "550 5.1.1 <[e-mail]>: Recipient address rejected",
		"send to 5511955551111 failed":                                            "send to [telefone] failed",
		"(#131030) Recipient phone number +55 11 95555-1111 not in allowed list":  "(#131030) Recipient phone number [telefone] not in allowed list",
		"(11) 95555-1111, (21) 3333-4444":                                         "[telefone], [telefone]",
		"11955551111":                                                             "[telefone]",
		"appointment 3f2a9c1e-0b7d-4c1e-9a55-000000000001 at 2026-11-26 10:00:00": "appointment 3f2a9c1e-0b7d-4c1e-9a55-000000000001 at 2026-11-26 10:00:00",
		"payment 1310785735 expired":                                              "payment 1310785735 expired",
		"status 503 after 30000 ms":                                               "status 503 after 30000 ms",
	} {
		if got := redact.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAttr_RedactsMessagesOfErrorsAndTexts(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: redact.Attr}))
	log.Error("job failed", "kind", "mail", "err", errors.New("smtp: 550 <bia@example.com> rejected"), "note", "ligar (11) 94444-1111")
	if s := buf.String(); strings.Contains(s, "bia@example.com") || strings.Contains(s, "94444-1111") || !strings.Contains(s, `"kind":"mail"`) {
		t.Fatalf("log line: %s", s)
	}
}

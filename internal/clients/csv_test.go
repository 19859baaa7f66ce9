package clients

import (
	"bytes"
	"strings"
	"testing"
)

func TestCSV_NeutralisesFormulas(t *testing.T) {
	var b bytes.Buffer
	err := CSV(&b, []Client{{Name: `=HYPERLINK("http://x")`, Email: "+cmd@x.com", Phone: "-1", AttendedCount: 1, LastAttended: "2026-11-01", RevenueCents: 123456, ScheduledCount: 2, ScheduledCents: 10000, NextAppointment: "2026-12-01",
		BookedCount: 4, LastBooked: "2026-12-08"}})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\r\n")
	if want := "\uFEFF" + strings.Join(SpecColumns, ";") + ";"; !strings.HasPrefix(lines[0], want) || strings.Join(SpecColumns, ";") != "Nome;Email;Telefone;Agendamentos;Último Agendamento;Receita Total" {
		t.Fatalf("SPEC's columns come first, in its order: %s", lines[0])
	}
	line := lines[1]
	if line != `"'=HYPERLINK(""http://x"")";'+cmd@x.com;'-1;4;08/12/2026;R$ 1.334,56;1;01/11/2026;R$ 1.234,56;2;01/12/2026;0` {
		t.Fatalf("%s", line)
	}
}

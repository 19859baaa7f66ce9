package clients

import (
	"bytes"
	"strings"
	"testing"
)

func TestCSV_NeutralisesFormulas(t *testing.T) {
	var b bytes.Buffer
	err := CSV(&b, []Client{{Name: `=HYPERLINK("http://x")`, Email: "+cmd@x.com", Phone: "-1", AttendedCount: 1, LastAttended: "2026-11-01", RevenueCents: 123456, ScheduledCount: 2, NextAppointment: "2026-12-01"}})
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Split(b.String(), "\r\n")[1]
	if line != `"'=HYPERLINK(""http://x"")";'+cmd@x.com;'-1;1;01/11/2026;R$ 1234,56;2;01/12/2026;0` {
		t.Fatalf("%s", line)
	}
}

package booking

import (
	"encoding/json"
	"os"
	"testing"
)

// A client's phone is read by the one phone rule (brfmt.Phone), whose cases
// the server and the web app share: what the booking stores is what the
// WhatsApp links and the web forms read.
func TestNormalizePhone_FollowsTheSharedPhoneCases(t *testing.T) {
	data, err := os.ReadFile("../../web/src/lib/phone-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			In       string
			National *string
			Why      string
		}
	}
	if err := json.Unmarshal(data, &f); err != nil || len(f.Cases) == 0 {
		t.Fatalf("phone-cases.json: %v", err)
	}
	for _, c := range f.Cases {
		got, ok := NormalizePhone(c.In)
		if want := c.National; ok != (want != nil) || want != nil && got != *want {
			t.Errorf("NormalizePhone(%q) = %q, %v; want %v (%s)", c.In, got, ok, want, c.Why)
		}
	}
}

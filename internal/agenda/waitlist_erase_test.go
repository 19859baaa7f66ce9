package agenda_test

import (
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// A client's waitlist entries (issue 28, point 3) are found by their key:
// the export lists them with the times offered, and the erase leaves no
// trace of them in any table — the entry, its offers, the offer e-mails
// and the owner's notifications — while another client's entry and offer
// stay byte for byte. A client who only ever waited (no appointment) is
// exported and erased too.
func TestErase_WaitlistEntriesByReference(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := eraseShop(t, e, "dona@example.com", "dona")
		join := func(ip string, in map[string]string) {
			t.Helper()
			c := e.Client()
			c.ForwardedFor = ip
			body := map[string]string{"serviceId": s.svc, "professionalId": "any", "firstDate": "2026-11-27", "lastDate": "2026-11-28", "partOfDay": "qualquer"}
			for k, v := range in {
				body[k] = v
			}
			if r := c.Do("POST", "/api/public/profiles/dona/waitlist", body); r.StatusCode != 201 {
				t.Fatalf("join: %d %s", r.StatusCode, r.Body)
			}
		}
		// Rita has an appointment and waits for an earlier one; Otávio waits
		// too; Wanda only waits.
		s.book(t, e, "dona", "10.1.1.1", map[string]string{"date": "2026-11-30", "time": "10:00", "clientName": "Rita Lobo",
			"clientPhone": "(11) 97777-1234", "clientEmail": "rita.lobo@example.com"})
		join("10.1.1.2", map[string]string{"clientName": "Rita Lobo", "clientPhone": "(11) 97777-1234", "clientEmail": "rita.lobo@example.com"})
		e.Clock.Advance(1e9)
		join("10.1.1.3", map[string]string{"clientName": "Otávio Neves", "clientEmail": "otavio.neves@example.com"})
		join("10.1.1.4", map[string]string{"clientName": "Wanda Prado", "clientEmail": "wanda.prado@example.com", "partOfDay": "noite"})
		// The 27th is full from 08:00 to 18:00 for the one professional;
		// the owner cancels 09:00 and the two morning entries are offered it.
		for _, at := range []string{"08:00", "09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00", "17:00", "18:00", "19:00"} {
			s.book(t, e, "dona", "10.2."+at[:2]+".1", map[string]string{"date": "2026-11-27", "time": at, "clientName": "Zeca Dias", "clientPhone": "(11) 96666-0000"})
		}
		var list struct{ Appointments []struct{ ID, Time string } }
		s.owner.Do("GET", "/api/appointments?from=2026-11-27&to=2026-11-27", nil).JSON(t, &list)
		for _, a := range list.Appointments {
			if a.Time == "09:00" {
				if r := s.owner.Do("PATCH", "/api/appointments/"+a.ID, map[string]string{"status": "cancelled"}); r.StatusCode != 200 {
					t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
				}
			}
		}
		e.RunJobs()

		var data struct {
			Waitlist []struct {
				Name, Email, PartOfDay string
				Offers                 []struct {
					Date, Time string
					Claimed    bool
				}
			}
		}
		key := clientKey("(11) 97777-1234", "")
		r := s.owner.Do("GET", "/api/clients/data?key="+key, nil)
		r.JSON(t, &data)
		if r.StatusCode != 200 || len(data.Waitlist) != 1 || data.Waitlist[0].Email != "rita.lobo@example.com" ||
			len(data.Waitlist[0].Offers) != 1 || data.Waitlist[0].Offers[0].Time != "09:00" {
			t.Fatalf("export: %d %s", r.StatusCode, r.Body)
		}
		wanda := clientKey("", "wanda.prado@example.com")
		if r := s.owner.Do("GET", "/api/clients/data?key="+wanda, nil); r.StatusCode != 200 {
			t.Fatalf("export of a client who only waited: %d %s", r.StatusCode, r.Body)
		}

		hers := []string{"Rita Lobo", "977771234", "97777-1234", "rita.lobo@example.com", "Wanda Prado", "wanda.prado@example.com"}
		others := []string{"Otávio Neves", "otavio.neves@example.com"}
		before := dump(t, e.DB)
		theirs := mentioning(before, others)
		// (The owner is told of a date's first join only — issue 38 — so
		// Otávio's join made no notification of its own.)
		if len(mentioning(before, hers)) < 8 || len(theirs) < 3 {
			t.Fatalf("the scenario wrote too little to check: %d rows about them, %d about the other", len(mentioning(before, hers)), len(theirs))
		}
		if n := s.erase(t, key); n != 1 {
			t.Fatalf("erased %d appointments, want 1", n)
		}
		if n := s.erase(t, wanda); n != 0 {
			t.Fatalf("erased %d appointments of a client who only waited", n)
		}
		after := dump(t, e.DB)
		unchanged(t, theirs, after)
		kept := map[string]bool{}
		for _, r := range theirs {
			kept[r.String()] = true
		}
		for _, r := range mentioning(after, hers) {
			if !kept[r.String()] {
				t.Errorf("personal data left after the erase:\n%s", r)
			}
		}
		if r := s.owner.Do("GET", "/api/clients/data?key="+wanda, nil); r.StatusCode != 404 {
			t.Fatalf("export after the erase: %d %s", r.StatusCode, r.Body)
		}
	})
}

package server_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// TestClientLinks_OpeningAnyOfThemChangesNothing (issue 38, point 4): mail
// and WhatsApp link scanners open every link of a message. Every form of
// every link sent to a client — the one-tap answers (confirm, "Preciso
// remarcar", cancel), the private page (cancel, move, the deposit's Pix),
// the waitlist's link to leave and an offer's claim link — is opened, the
// page and each API read it makes, several times; every row of every table
// reads the same afterwards. The pages act on their buttons (the POSTs),
// which the last step checks still work.
func TestClientLinks_OpeningAnyOfThemChangesNothing(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Client()
		d := seedOwner(t, e, a)
		visitor := e.Client()
		var booked struct{ ID, Token string }
		r := visitor.Do("POST", "/api/public/profiles/anabela/bookings", map[string]string{
			"professionalId": d.ids["/api/professionals/"], "serviceId": d.ids["/api/services/"], "date": "2026-11-27", "time": "09:00",
			"clientName": "Bruna Link", "clientPhone": "(11) 96666-1234", "clientEmail": "bruna.link@example.com"})
		if r.StatusCode != 201 {
			t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &booked)
		var answers struct{ Confirm, Reschedule, Cancel string }
		if r := a.Do("POST", "/api/appointments/"+booked.ID+"/answer-links", nil); r.StatusCode != 201 {
			t.Fatalf("answer links: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &answers)
		}
		var joined struct{ Token string }
		if r := visitor.Do("POST", "/api/public/profiles/anabela/waitlist", map[string]string{"serviceId": d.ids["/api/services/"],
			"professionalId": d.ids["/api/professionals/"], "firstDate": "2026-11-26", "lastDate": "2026-11-26", "partOfDay": "qualquer",
			"clientName": "Carla Espera", "clientPhone": "(11) 95555-4321", "clientEmail": "carla.espera@example.com"}); r.StatusCode != 201 {
			t.Fatalf("waitlist: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &joined)
		}
		var waiting struct {
			Entries []struct{ ID, ClientName string }
		}
		a.Do("GET", "/api/waitlist?date=2026-11-26", nil).JSON(t, &waiting)
		for _, en := range waiting.Entries {
			if en.ClientName == "Carla Espera" {
				if r := a.Do("POST", "/api/waitlist/"+en.ID+"/offers", map[string]string{"date": "2026-11-26", "time": "15:00"}); r.StatusCode != 201 {
					t.Fatalf("offer: %d %s", r.StatusCode, r.Body)
				}
			}
		}
		offer := ""
		for _, m := range e.Mails() {
			raw := m.Text()
			if k := regexp.MustCompile(`/lista-de-espera/oferta/([A-Za-z0-9_\-]+)`).FindStringSubmatch(raw); k != nil {
				offer = k[1]
			}
		}
		tail := func(u string) string { return u[strings.LastIndex(u, "/")+1:] }
		if offer == "" || joined.Token == "" || answers.Confirm == "" || booked.Token == "" {
			t.Fatalf("links: offer %q, entry %q, answers %+v, booking %q", offer, joined.Token, answers, booked.Token)
		}

		var opens []string
		for _, tok := range []string{tail(answers.Confirm), tail(answers.Reschedule), tail(answers.Cancel)} {
			opens = append(opens, "/resposta/"+tok, "/api/public/answers/"+tok)
		}
		opens = append(opens, "/cancel/"+booked.Token, "/cancel/"+booked.Token+"?remarcar=1", "/api/public/bookings/"+booked.Token,
			"/api/public/bookings/"+booked.Token+"/times?date=2026-11-27", "/api/public/bookings/"+booked.Token+"/invite.ics",
			"/api/public/bookings/"+booked.Token+"/pix.png",
			"/lista-de-espera/"+joined.Token, "/api/public/waitlist/"+joined.Token,
			"/lista-de-espera/oferta/"+offer, "/api/public/waitlist-offers/"+offer)

		before := everyRow(t, e.DB)
		for range 3 {
			for _, p := range opens {
				scanner := e.Client()
				if r := scanner.Do("GET", p, nil); r.StatusCode >= 500 {
					t.Errorf("GET %s: %d %s", p, r.StatusCode, r.Body)
				}
				if strings.HasPrefix(p, "/api/") {
					continue // HEAD is not in the contract; the pages' HEAD is a GET without its body
				}
				if r := scanner.Do("HEAD", p, nil); r.StatusCode >= 500 {
					t.Errorf("HEAD %s: %d", p, r.StatusCode)
				}
			}
		}
		e.RunJobs()
		if after := everyRow(t, e.DB); after != before {
			t.Errorf("opening the links changed the database:\n%s", diffLines(before, after))
		}

		// The buttons act: confirm, then the offer's claim.
		if r := visitor.Do("POST", "/api/public/answers/"+tail(answers.Confirm), nil); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"answer":"confirmed"`) {
			t.Errorf("confirm: %d %s", r.StatusCode, r.Body)
		}
		if r := visitor.Do("POST", "/api/public/waitlist-offers/"+offer+"/claim", nil); r.StatusCode != 201 {
			t.Errorf("claim: %d %s", r.StatusCode, r.Body)
		}
	})
}

// everyRow is every row of every table of the database, as text, sorted.
func everyRow(t *testing.T, d *db.DB) string {
	t.Helper()
	ctx := context.Background()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if d.Dialect == db.Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	rows, err := d.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	sort.Strings(tables)
	var out []string
	for _, table := range tables {
		rows, err := d.QueryContext(ctx, `SELECT * FROM `+table)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%s=%v ", cols[i], v)
			}
			lines = append(lines, table+": "+b.String())
		}
		rows.Close()
		sort.Strings(lines)
		out = append(out, lines...)
	}
	return strings.Join(out, "\n")
}

// diffLines lists the lines only one of two texts has.
func diffLines(before, after string) string {
	had := map[string]bool{}
	for _, l := range strings.Split(before, "\n") {
		had[l] = true
	}
	has := map[string]bool{}
	var out []string
	for _, l := range strings.Split(after, "\n") {
		has[l] = true
		if !had[l] {
			out = append(out, "+ "+l)
		}
	}
	for _, l := range strings.Split(before, "\n") {
		if !has[l] {
			out = append(out, "- "+l)
		}
	}
	return strings.Join(out, "\n")
}

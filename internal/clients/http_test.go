package clients_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/server/servertest"
)

type row struct {
	date, at, status, name, email, phone, notes string
	price                                       int
}

// owner signs up a practice and writes its appointments as given.
func owner(t *testing.T, e *servertest.Env, rows []row) *servertest.Client {
	c := e.Client()
	var me struct{ User struct{ ID string } }
	c.Signup("Dona", "dona@example.com", "segredo1", "gato").JSON(t, &me)
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
	}
	if r := c.Do("POST", "/api/onboarding", map[string]any{"name": "Dona", "area": "Psi", "publicUsername": "dona",
		"services": []map[string]any{{"name": "Sessão", "duration": 60, "priceCents": 10000}}, "days": days}); r.StatusCode >= 300 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var pro struct{ ID string }
	c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	for i, r := range rows {
		start, _ := time.ParseInLocation("2006-01-02 15:04", r.date+" "+r.at, loc)
		_, err := e.DB.ExecContext(context.Background(), `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
			duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash,
			search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, 'Ana', 'Sessão', 60, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			uuid.NewString(), me.User.ID, pro.ID, svcs[0].ID, r.price, r.name, r.email, r.phone, r.notes, r.date, r.at, start.UTC(), r.status, uuid.NewString(),
			booking.SearchKey(r.name, r.email), booking.ClientKey(r.phone, r.email), e.Clock.Now(), e.Clock.Now().Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// The clock stands at 2026-11-23 09:00 in São Paulo.
var rows = []row{
	{"2026-11-02", "10:00", "completed", "Maria da Silva", "maria@x.com", "11911111111", "", 10000},
	{"2026-11-16", "10:00", "completed", "Maria da Silva", "maria@x.com", "11911111111", "", 5000},
	{"2026-11-20", "10:00", "no_show", "Maria da Silva", "maria@x.com", "11911111111", "", 2000},
	{"2026-11-21", "10:00", "cancelled", "Maria da Silva", "maria@x.com", "11911111111", "", 3000},
	{"2026-11-22", "10:00", "confirmed", "Maria da Silva", "maria@x.com", "11911111111", "", 4000}, // past, not marked: neither
	{"2026-11-30", "10:00", "confirmed", "Maria da Silva", "maria@x.com", "11911111111", "", 7000},
	{"2026-12-07", "10:00", "confirmed", "Maria da Silva", "maria@x.com", "11911111111", "", 7000},
	{"2026-11-10", "11:00", "completed", "Érica Souza", "erica@x.com", "21922222222", "", 12000},
	{"2026-11-11", "11:00", "completed", "Mário Souza", "mario@y.com", "11955550000", "", 8000},
	{"2026-11-12", "11:00", "completed", "Ana", "ana@exemplo.com", "", "", 6000},
	{"2026-11-13", "11:00", "completed", "Joana", "", "11977776666", "Indicada pela Érica Souza", 6000},
}

type client struct {
	Name, LastAttended, NextAppointment                         string
	AttendedCount, RevenueCents, ScheduledCount, ScheduledCents int
	NoShows                                                     int
}

func list(t *testing.T, c *servertest.Client, query string) (int, []client) {
	t.Helper()
	r := c.Do("GET", "/api/clients?"+query, nil)
	if r.StatusCode != 200 {
		t.Fatalf("%s: %d %s", query, r.StatusCode, r.Body)
	}
	var out struct {
		Total   int
		Clients []client
	}
	r.JSON(t, &out)
	return out.Total, out.Clients
}

func names(cs []client) string {
	var n []string
	for _, c := range cs {
		n = append(n, c.Name)
	}
	return strings.Join(n, ", ")
}

// A client's totals count what was attended (completed, begun) and apart
// from it what is scheduled (confirmed, ahead); a cancellation counts in
// neither, a no-show only as one, a past appointment never marked in
// neither. "Último atendimento" is past, "Próximo" ahead; the client's page
// says the same.
func TestClients_TotalsCountAttendedApartFromScheduled(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := owner(t, e, rows)
		_, cs := list(t, c, "q=maria")
		want := client{Name: "Maria da Silva", LastAttended: "2026-11-16", NextAppointment: "2026-11-30",
			AttendedCount: 2, RevenueCents: 15000, ScheduledCount: 2, ScheduledCents: 14000, NoShows: 1}
		if len(cs) != 1 || cs[0] != want {
			t.Fatalf("Maria: %+v", cs)
		}
		var h struct {
			Count, AttendedCount, RevenueCents, ScheduledCount, ScheduledCents, NoShows int
			LastAttended, NextAppointment                                               string
		}
		c.Do("GET", "/api/clients/history?key=11911111111", nil).JSON(t, &h)
		if h.Count != 7 || h.AttendedCount != 2 || h.RevenueCents != 15000 || h.ScheduledCount != 2 || h.ScheduledCents != 14000 || h.NoShows != 1 ||
			h.LastAttended != "2026-11-16" || h.NextAppointment != "2026-11-30" {
			t.Fatalf("history: %+v", h)
		}
	})
}

// The list searches by part of the name (case and accents ignored), by the
// phone's digits however typed, and by e-mail — the stored keys, never the
// notes — and pages through what it found with the total of the matches.
func TestClients_SearchByNamePhoneOrEmailPaginated(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := owner(t, e, rows)
		for q, want := range map[string]string{
			"souza":         "Mário Souza, Érica Souza", // Joana's notes name "Érica Souza": not a match
			"ERICA":         "Érica Souza",
			"mári":          "Maria da Silva, Mário Souza",
			"(11) 95555":    "Mário Souza",
			"97777-6666":    "Joana",
			"exemplo.com":   "Ana",
			"MARIO@Y.COM":   "Mário Souza",
			"ninguém":       "",
			"":              "Maria da Silva, Joana, Ana, Mário Souza, Érica Souza",
			"   ":           "Maria da Silva, Joana, Ana, Mário Souza, Érica Souza",
			"indicada pela": "",
		} {
			total, cs := list(t, c, "q="+url.QueryEscape(q))
			if names(cs) != want || total != len(cs) {
				t.Errorf("%q: %d %s, want %s", q, total, names(cs), want)
			}
		}
		// Pages of a search keep its order and its total; past the end is
		// empty and still counts the matches.
		for query, want := range map[string]string{"q=souza&limit=1&offset=0": "Mário Souza", "q=souza&limit=1&offset=1": "Érica Souza", "q=souza&limit=1&offset=5": ""} {
			total, cs := list(t, c, query)
			if total != 2 || names(cs) != want {
				t.Errorf("%s: %d %s", query, total, names(cs))
			}
		}
		// The export follows the search.
		csv := string(c.Do("GET", "/api/clients/export?q=souza", nil).Body)
		if strings.Count(csv, "\r\n") != 3 || !strings.Contains(csv, "Érica Souza") || strings.Contains(csv, "Maria") {
			t.Fatalf("export: %q", csv)
		}
	})
}

// The LGPD spreadsheet says statuses as the owner's screens do.
func TestClientData_CSVSaysStatusesInPortuguese(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := owner(t, e, rows)
		body := string(c.Do("GET", "/api/clients/data?key=11911111111&format=csv", nil).Body)
		for _, s := range []string{";concluído;", ";não compareceu;", ";cancelado;", ";confirmado;"} {
			if !strings.Contains(body, s) {
				t.Errorf("missing %s in\n%s", s, body)
			}
		}
		for _, raw := range []string{"completed", "no_show", "cancelled", "confirmed"} {
			if strings.Contains(body, raw) {
				t.Errorf("raw status %s in\n%s", raw, body)
			}
		}
	})
}

// A notification about a client opens them: it carries their identifier,
// which follows them when their contacts change and when their data is
// erased (then their page is 'Cliente removido').
func TestNotifications_CarryTheClientTheyAreAbout(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := owner(t, e, rows)
		if r := c.Do("PUT", "/api/clients/contact", map[string]string{"identifier": "11977776666", "name": "Joana Reis", "phone": "(11) 97777-0000"}); r.StatusCode != 200 {
			t.Fatalf("contact: %d %s", r.StatusCode, r.Body)
		}
		keys := func() map[string]string {
			var out struct {
				Notifications []struct{ Title, ClientKey string }
			}
			c.Do("GET", "/api/notifications", nil).JSON(t, &out)
			m := map[string]string{}
			for _, n := range out.Notifications {
				m[n.Title] = n.ClientKey
			}
			return m
		}
		if k := keys()["Dados do cliente atualizados"]; k != "11977770000" {
			t.Fatalf("client key %q", k)
		}
		if r := c.Do("POST", "/api/clients/erase", map[string]any{"identifier": "11977770000", "confirm": true}); r.StatusCode != 200 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		}
		k := keys()["Dados do cliente atualizados"]
		var h struct{ Client struct{ Name string } }
		if r := c.Do("GET", "/api/clients/history?key="+url.QueryEscape(k), nil); r.StatusCode != 200 {
			t.Fatalf("erased client's page %q: %d", k, r.StatusCode)
		} else if r.JSON(t, &h); h.Client.Name != "Cliente removido" {
			t.Fatalf("erased client: %+v", h)
		}
	})
}

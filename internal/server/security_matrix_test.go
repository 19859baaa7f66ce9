package server_test

import (
	"bytes"
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// ownerData is what the first owner has, and the strings that must never
// appear in an answer to anyone else.
type ownerData struct {
	ids       map[string]string // path parameter → the first owner's record id, per path prefix
	secrets   []string
	clientKey string // the identifier of the first owner's client
}

// seedOwner makes owner A with a bit of everything: profile, professional,
// service, hours, a booking (so an appointment, a client and a notification),
// and an open test checkout.
func seedOwner(t testing.TB, e *servertest.Env, a *servertest.Client) ownerData {
	t.Helper()
	a.Signup("Anabela Sigilo", "anabela.sigilo@example.com", "senha-da-ana-1", "gato")
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "18:00"})
	}
	if r := a.Do("POST", "/api/onboarding", map[string]any{"name": "Anabela Sigilo", "area": "Psicologia", "publicUsername": "anabela",
		"services": []map[string]any{{"name": "Terapia Reservada", "duration": 60, "priceCents": 12345}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var pro struct{ ID string }
	a.Do("POST", "/api/professionals", map[string]string{"name": "Doutora Escondida", "specialization": "Psicóloga"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	a.Do("GET", "/api/services", nil).JSON(t, &svcs)
	visitor := e.Client()
	r := visitor.Do("POST", "/api/public/profiles/anabela/bookings", map[string]string{
		"professionalId": pro.ID, "serviceId": svcs[0].ID, "date": "2026-11-25", "time": "10:00",
		"clientName": "Cliente Confidencial", "clientPhone": "(11) 97531-8642", "clientEmail": "confidencial@example.com"})
	if r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	var appts struct{ Appointments []struct{ ID string } }
	a.Do("GET", "/api/appointments?from=2026-11-01&to=2026-12-31", nil).JSON(t, &appts)
	var notes struct{ Notifications []struct{ ID string } }
	a.Do("GET", "/api/notifications", nil).JSON(t, &notes)
	var co struct{ URL string }
	a.Do("POST", "/api/subscription/checkout", nil).JSON(t, &co)
	if len(appts.Appointments) != 1 || len(notes.Notifications) == 0 || co.URL == "" {
		t.Fatalf("seed incomplete: %+v %+v %q", appts, notes, co.URL)
	}
	checkout := co.URL[strings.LastIndex(co.URL, "/")+1:]
	// A note in the record of the client (issue 43), by the owner as the professional they are.
	if r := a.Do("PUT", "/api/records/self", map[string]string{"professionalId": pro.ID}); r.StatusCode != 200 {
		t.Fatalf("self: %d %s", r.StatusCode, r.Body)
	}
	var rec struct {
		Record struct {
			ID      string
			Entries [][]struct{ ID, EntryID string }
		}
	}
	if r := a.Do("POST", "/api/records/entries", map[string]string{"client": appts.Appointments[0].ID, "kind": "prontuario", "template": "evolucao",
		"sessionDate": "2026-11-20", "body": "Anotação Sigilosa 7731"}); r.StatusCode != 201 {
		t.Fatalf("record entry: %d %s", r.StatusCode, r.Body)
	} else {
		r.JSON(t, &rec)
	}
	var attached struct {
		Record struct{ Files []struct{ ID string } }
	}
	if r := a.Upload("/api/records/"+rec.Record.ID+"/files", "file", "exame-sigiloso.pdf", []byte("%PDF-1.4\nLaudo Sigiloso 5512\n%%EOF\n")); r.StatusCode != 201 {
		t.Fatalf("record file: %d %s", r.StatusCode, r.Body)
	} else {
		r.JSON(t, &attached)
	}
	var off struct{ ID string }
	a.Do("POST", "/api/days-off", map[string]any{"professionalId": pro.ID, "start": "2026-12-21", "end": "2026-12-31", "reason": "Recesso Sigiloso"}).JSON(t, &off)
	var block struct{ ID string }
	a.Do("POST", "/api/blocks", map[string]any{"professionalId": pro.ID, "date": "2026-12-02", "start": "14:00", "end": "15:00", "reason": "Reunião Sigilosa"}).JSON(t, &block)
	var feed struct{ ID string }
	a.Do("POST", "/api/calendar-feeds", map[string]any{"professionalId": pro.ID}).JSON(t, &feed)
	if r := a.Do("PUT", "/api/calendars/"+pro.ID, map[string]any{"url": "https://calendar.google.com/calendar/ical/sigilo%40gmail.com/private-sigilo/basic.ics"}); r.StatusCode != 200 {
		t.Fatalf("calendar seed: %d %s", r.StatusCode, r.Body)
	}
	var holiday struct{ Key string }
	a.Do("POST", "/api/holidays", map[string]any{"name": "Feriado Sigiloso", "month": 3, "day": 19}).JSON(t, &holiday)
	if r := a.Do("PUT", "/api/professionals/"+pro.ID+"/hours", map[string]any{"ownHours": false}); r.StatusCode != 200 || off.ID == "" || holiday.Key == "" || block.ID == "" || feed.ID == "" {
		t.Fatalf("schedule seed: %d %s %+v %+v", r.StatusCode, r.Body, off, holiday)
	}
	// A client on the waitlist (issue 28, point 3).
	if r := visitor.Do("POST", "/api/public/profiles/anabela/waitlist", map[string]string{"serviceId": svcs[0].ID, "professionalId": pro.ID,
		"firstDate": "2026-11-26", "lastDate": "2026-11-27", "partOfDay": "qualquer", "clientName": "Cliente Confidencial", "clientPhone": "(11) 97531-8642"}); r.StatusCode != 201 {
		t.Fatalf("waitlist: %d %s", r.StatusCode, r.Body)
	}
	var waiting struct{ Entries []struct{ ID string } }
	a.Do("GET", "/api/waitlist?date=2026-11-26", nil).JSON(t, &waiting)
	if len(waiting.Entries) != 1 {
		t.Fatalf("waitlist seed: %+v", waiting)
	}
	// Receipts on, and the client's CPF (issue 43 §4): personal data no other owner may read.
	if r := a.Do("PUT", "/api/receita-saude/settings", map[string]any{"enabled": true, "document": "529.982.247-25", "occupation": "255"}); r.StatusCode != 200 {
		t.Fatalf("receipts seed: %d %s", r.StatusCode, r.Body)
	}
	if r := a.Do("PUT", "/api/clients/contact", map[string]any{"identifier": "11975318642", "name": "Cliente Confidencial", "phone": "(11) 97531-8642",
		"email": "confidencial@example.com", "cpf": "111.444.777-35"}); r.StatusCode != 200 {
		t.Fatalf("CPF seed: %d %s", r.StatusCode, r.Body)
	}
	d := ownerData{ids: map[string]string{
		"/api/waitlist/":              waiting.Entries[0].ID,
		"/api/appointments/":          appts.Appointments[0].ID,
		"/api/notifications/":         notes.Notifications[0].ID,
		"/api/services/":              svcs[0].ID,
		"/api/professionals/":         pro.ID,
		"/api/billing/test-checkout/": checkout,
		"/api/days-off/":              off.ID,
		"/api/holidays/":              holiday.Key,
		"/api/blocks/":                block.ID,
		"/api/calendar-feeds/":        feed.ID,
		"/api/calendars/":             pro.ID,
		"/api/members/":               pro.ID,
		"/api/records/":               rec.Record.ID,
		"/api/records/entries/":       rec.Record.Entries[0][0].EntryID,
		"/api/records/versions/":      rec.Record.Entries[0][0].ID,
		"{file}":                      attached.Record.Files[0].ID,
	}}
	d.clientKey = "11975318642"
	d.secrets = []string{"Anabela Sigilo", "anabela.sigilo@example.com", "Terapia Reservada", "Doutora Escondida",
		"Cliente Confidencial", "97531", "confidencial@example.com", "12345", "Recesso Sigiloso", "Feriado Sigiloso", "Reunião Sigilosa", "private-sigilo",
		"Anotação Sigilosa 7731", "Laudo Sigiloso 5512", "exame-sigiloso", "11144477735", "52998224725"}
	for _, id := range d.ids {
		d.secrets = append(d.secrets, id)
	}
	return d
}

// matrixRequest fills an operation's path and query with the first owner's
// ids, and gives writes a body that would be valid for the owner.
func matrixRequest(t *testing.T, method, path string, d ownerData) (string, any) {
	longest := ""
	for prefix := range d.ids {
		if strings.HasPrefix(path, prefix) && len(prefix) > len(longest) {
			longest = prefix
		}
	}
	if longest != "" {
		id := d.ids[longest]
		path = strings.Replace(strings.Replace(path, "{id}", id, 1), "{key}", id, 1)
	}
	path = strings.Replace(path, "{cep}", "01001-000", 1) // an address lookup: no owner's record
	path = strings.Replace(path, "{file}", d.ids["{file}"], 1)
	if strings.Contains(path, "{") {
		t.Fatalf("%s %s: no id of the first owner for this path; add it to seedOwner", method, path)
	}
	query := map[string]string{
		"/api/appointments":                  "?from=2026-11-01&to=2026-12-31&professional=" + d.ids["/api/professionals/"] + "&q=Confidencial",
		"/api/clients":                       "?q=Confidencial",
		"/api/reports":                       "?professional=" + d.ids["/api/professionals/"] + "&service=" + d.ids["/api/services/"],
		"/api/profile/username-availability": "?username=anabela",
		"/api/schedule":                      "?from=2026-12-01&to=2026-12-31&professional=" + d.ids["/api/professionals/"],
		"/api/agenda/grid":                   "?from=2026-12-01&to=2026-12-07&professional=" + d.ids["/api/professionals/"],
		"/api/holidays":                      "?year=2027",
		"/api/blocks":                        "?from=2026-12-01&to=2026-12-31",
		"/api/clients/search":                "?q=Confidencial",
		"/api/clients/history":               "?key=" + d.clientKey,
		"/api/clients/data":                  "?key=" + d.clientKey,
		"/api/clients/statement":             "?key=" + d.clientKey + "&month=2026-11",
		"/api/receita-saude/receipts":        "?month=2026-11",
		"/api/receita-saude/carne-leao":      "?month=2026-11",
		"/api/waitlist":                      "?date=2026-11-26",
		"/api/records":                       "?client=" + d.clientKey,
		"/api/records/holders.csv":           "?professional=" + d.ids["/api/professionals/"],
	}
	bodies := map[string]any{
		"DELETE /api/account":                      map[string]string{"password": "senha-da-ana-1", "confirmation": "EXCLUIR"},
		"PUT /api/profile":                         map[string]any{"name": "Bia", "area": "Nutrição", "publicUsername": "bia"},
		"POST /api/profile/photo":                  map[string]any{},
		"POST /api/onboarding":                     map[string]any{"name": "Bia", "area": "Nutrição", "publicUsername": "bia", "services": []any{}, "days": []any{}},
		"PATCH /api/appointments/{id}":             map[string]string{"status": "cancelled"},
		"POST /api/appointments/{id}/reschedule":   map[string]any{"date": "2026-12-04", "time": "10:00", "outsideHours": true},
		"PATCH /api/notifications/{id}":            map[string]bool{"read": true},
		"PUT /api/services/{id}":                   map[string]any{"name": "X", "duration": 10, "priceCents": 0},
		"POST /api/services":                       map[string]any{"name": "S", "duration": 30, "priceCents": 0, "professionalIds": []string{d.ids["/api/professionals/"]}},
		"PUT /api/professionals/{id}":              map[string]string{"name": "X", "specialization": "Y"},
		"PATCH /api/professionals/{id}":            map[string]bool{"active": false},
		"POST /api/professionals":                  map[string]string{"name": "P", "specialization": "Q"},
		"PUT /api/availability":                    map[string]any{"days": []any{}},
		"PUT /api/professionals/{id}/hours":        map[string]any{"ownHours": false},
		"POST /api/days-off":                       map[string]any{"start": "2026-12-24", "end": "2026-12-24", "reason": "Natal"},
		"POST /api/holidays":                       map[string]any{"name": "Aniversário", "month": 1, "day": 25},
		"PUT /api/clients/contact":                 map[string]string{"identifier": d.clientKey, "name": "Intrusa", "phone": "11988887777"},
		"POST /api/blocks":                         map[string]any{"date": "2026-12-24", "start": "08:00", "end": "09:00", "reason": "Natal"},
		"POST /api/calendar-feeds":                 map[string]any{"professionalId": d.ids["/api/professionals/"]},
		"PATCH /api/calendar-feeds/{id}":           map[string]bool{"includePhone": true},
		"PUT /api/calendars/{id}":                  map[string]any{"url": "https://intrusa.example/agenda.ics", "showTitles": true},
		"POST /api/calendars/{id}/caldav/discover": map[string]any{"url": "https://intrusa.example/", "user": "intrusa", "password": "senha-de-app"},
		"PUT /api/calendars/{id}/caldav":           map[string]any{"url": "https://intrusa.example/", "user": "intrusa", "password": "senha-de-app", "calendars": []string{"/intrusa/a/"}},
		"PUT /api/calendars/{id}/google":           map[string]any{"calendars": []string{"intrusa@gmail.com"}},
		"PUT /api/calendars/{id}/google/write":     map[string]string{"calendar": "intrusa@gmail.com"},
		"POST /api/calendars/google/finish":        map[string]string{"code": "4/intrusa", "state": "estado-intruso"},
		"POST /api/clients/erase":                  map[string]any{"identifier": d.clientKey, "confirm": true},
		"PUT /api/message-templates":               map[string]string{"confirmation": "Oi {nome}", "reminder": "Lembrete {data}", "reschedule": "Nova hora {hora}"},
		"POST /api/appointments":                   map[string]any{"professionalId": d.ids["/api/professionals/"], "serviceId": d.ids["/api/services/"], "date": "2026-12-03", "time": "10:00", "clientName": "Intrusa", "clientPhone": "11988887777", "outsideHours": true},
		"PUT /api/holidays/{id}":                   map[string]bool{"open": true},
		"PUT /api/schedule-rules":                  map[string]int{"slotStep": 15, "minNoticeMinutes": 60, "bookingWindowDays": 30, "cancelCutoffHours": 12},
		"POST /api/notifications/read-all":         nil,
		"POST /api/subscription/checkout":          nil,
		"POST /api/subscription/portal":            nil,
		"POST /api/subscription/cancel":            nil,
		"POST /api/billing/test-checkout/{id}/pay": nil,
		"POST /api/waitlist/{id}/offers":           map[string]string{"date": "2026-11-26", "time": "10:00"},
		"PUT /api/waitlist/settings":               map[string]int{"offerMinutes": 30},
		"PUT /api/members/{id}":                    map[string]string{"email": "intrusa@example.com"},
		"POST /api/records/entries":                map[string]string{"client": d.clientKey, "kind": "prontuario", "template": "livre", "sessionDate": "2026-11-20", "body": "Intrusa"},
		"POST /api/records/entries/{id}/versions":  map[string]string{"body": "Intrusa", "reason": "Intrusa"},
		"PUT /api/records/self":                    map[string]string{"professionalId": d.ids["/api/professionals/"]},
		"PUT /api/records/{id}/client-copy":        map[string]bool{"allow": true},
		"POST /api/records/{id}/destroy":           map[string]string{"confirm": "ELIMINAR"},
		"POST /api/records/{id}/documents":         map[string]string{"issuedOn": "2026-11-20", "purpose": "Intrusa", "recipient": "Intrusa"},
		"PUT /api/records/{id}/share":              map[string]string{"reader": "owner", "summary": "Intrusa"},
		"PUT /api/records/versions/{id}/cosign":    map[string]string{"supervisorId": d.ids["/api/professionals/"]},
		"PUT /api/record-templates":                map[string]any{"templates": []map[string]string{{"template": "evolucao", "body": "Intrusa"}}},
		"PUT /api/appointments/{id}/payment":       map[string]bool{"paid": true},
		"POST /api/clients/statement/email":        map[string]string{"key": d.clientKey, "month": "2026-11"},
		"PUT /api/receita-saude/settings":          map[string]any{"enabled": true, "document": "39053344705", "occupation": "225"},
	}
	return path + query[strings.SplitN(path, "?", 2)[0]], bodies[method+" "+templateOf(path, d)]
}

// templateOf turns a filled path back into its template, to look up bodies.
func templateOf(path string, d ownerData) string {
	for _, id := range d.ids {
		path = strings.Replace(path, id, "{id}", 1)
	}
	return path
}

// TestSecurityMatrix_EveryOwnerEndpointKeepsToItsOwner is derived from
// api/openapi.yaml: every operation that needs a signed-in owner is called
// anonymously (401, nothing in the answer) and as a second owner with the
// first owner's ids and filters (404 for the other's records, and no string
// of the first owner's in any answer); afterwards the first owner's data
// reads exactly as before.
func TestSecurityMatrix_EveryOwnerEndpointKeepsToItsOwner(t *testing.T) {
	doc, err := servertest.Spec()
	if err != nil {
		t.Fatal(err)
	}
	type op struct{ method, path string }
	var ops []op
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			if o.Security != nil && len(*o.Security) == 0 {
				continue // public by design
			}
			ops = append(ops, op{method, path})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	if len(ops) < 30 {
		t.Fatalf("only %d owner operations found in the spec", len(ops))
	}

	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a, b, anon := e.Client(), e.Client(), e.Client()
		d := seedOwner(t, e, a)
		b.Signup("Bia Outra", "bia@example.com", "senha-da-bia-2", "cão")

		reads := []string{"/api/me", "/api/profile", "/api/setup-status", "/api/services", "/api/professionals", "/api/availability",
			"/api/appointments?from=2026-11-01&to=2026-12-31", "/api/appointments/" + d.ids["/api/appointments/"], "/api/notifications",
			"/api/clients", "/api/clients/export", "/api/reports", "/api/dashboard", "/api/subscription",
			"/api/days-off", "/api/holidays?year=2027", "/api/schedule-rules", "/api/schedule?from=2026-12-01&to=2026-12-31",
			"/api/blocks?from=2026-12-01&to=2026-12-31", "/api/clients/search?q=Confidencial", "/api/clients/history?key=" + d.clientKey,
			"/api/professionals/" + d.ids["/api/professionals/"] + "/hours", "/api/calendar-feeds", "/api/message-templates",
			"/api/appointments/" + d.ids["/api/appointments/"] + "/payment", "/api/clients/statement?key=" + d.clientKey + "&month=2026-11"}
		snapshot := func() map[string]string {
			out := map[string]string{}
			for _, p := range reads {
				r := a.Do("GET", p, nil)
				out[p] = string(r.Body)
			}
			return out
		}
		before := snapshot()

		leaks := 0
		for _, o := range ops {
			path, body := matrixRequest(t, o.method, o.path, d)
			if o.path == "/api/events" {
				continue // a stream: checked below
			}
			if r := anon.Do(o.method, path, body); r.StatusCode != http.StatusUnauthorized {
				t.Errorf("anonymous %s %s: %d %s", o.method, path, r.StatusCode, r.Body)
			}
			r := b.Do(o.method, path, body)
			if strings.Contains(o.path, "{id}") && r.StatusCode != http.StatusNotFound {
				t.Errorf("second owner %s %s with the first owner's id: %d %s", o.method, path, r.StatusCode, r.Body)
			}
			if o.path == "/api/account" && r.StatusCode != http.StatusForbidden {
				t.Errorf("second owner deleting with the first owner's password: %d %s", r.StatusCode, r.Body)
			}
			if r.StatusCode >= 500 {
				t.Errorf("second owner %s %s: %d %s", o.method, path, r.StatusCode, r.Body)
			}
			for _, s := range d.secrets {
				if bytes.Contains(r.Body, []byte(s)) {
					leaks++
					t.Errorf("LEAK: %s %s as the second owner answers %q: %s", o.method, path, s, r.Body)
				}
			}
		}
		t.Logf("%d owner operations × 2 callers, %d leaks", len(ops), leaks)

		after := snapshot()
		for _, p := range reads {
			if before[p] != after[p] {
				t.Errorf("the first owner's %s changed:\nbefore %s\nafter  %s", p, before[p], after[p])
			}
		}
		checkStream(t, e, anon, b, d)
	})
}

// checkStream: the event stream refuses anonymous visitors, and a second
// owner's stream says nothing about the first owner's new booking.
func checkStream(t *testing.T, e *servertest.Env, anon, b *servertest.Client, d ownerData) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := anon.Open(ctx, "GET", "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("anonymous event stream: %d", res.StatusCode)
	}
	res, err = b.Open(ctx, "GET", "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("second owner's own stream: %d", res.StatusCode)
	}
	// A new booking for the first owner while the second owner listens.
	r := e.Client().Do("POST", "/api/public/profiles/anabela/bookings", map[string]string{
		"professionalId": d.ids["/api/professionals/"], "serviceId": d.ids["/api/services/"], "date": "2026-11-25", "time": "14:00",
		"clientName": "Cliente Confidencial", "clientPhone": "(11) 97531-8642"})
	if r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	var got bytes.Buffer
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break // the 2-second deadline ends the stream
		}
	}
	if !strings.Contains(got.String(), "event: ready") {
		t.Errorf("second owner's stream did not start: %q", got.String())
	}
	// The second owner's own writes of the matrix above may still be on
	// their way (on PostgreSQL through NOTIFY): each says "self":true, as
	// made by this sign-in. Anything of the first owner's would not.
	if strings.Contains(got.String(), `"self":false`) || strings.Contains(got.String(), "Confidencial") {
		t.Errorf("second owner's stream heard the first owner's booking: %q", got.String())
	}
}

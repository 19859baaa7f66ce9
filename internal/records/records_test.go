package records_test

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

type entry struct {
	ID, EntryID, Kind, Body, Reason, Signature string
	Version                                    int
}

type record struct {
	Record *struct {
		ID      string
		Client  struct{ Name string }
		Entries [][]entry
	}
}

// later moves the clock on and signs everyone in again.
func (p practice) later(e *servertest.Env, d time.Duration) {
	e.Clock.Advance(d)
	for _, c := range []*servertest.Client{p.owner, p.paula, p.rui} {
		c.Refresh()
	}
}

// practice is an owner with two professionals signed in as themselves,
// Paula (CRP 06/12345) and Rui, and a session of Paula's with Clara that has
// begun.
type practice struct {
	owner, paula, rui *servertest.Client
	paulaID, ruiID    string
	appointment       string
	link              string // Clara's private link's token
}

func newPractice(t *testing.T, e *servertest.Env) practice {
	t.Helper()
	var p practice
	p.owner = e.Client()
	p.owner.Signup("Clínica Sol", "dona.sol@example.com", "senha-da-dona", "gato")
	days := []map[string]any{}
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "18:00"})
	}
	if r := p.owner.Do("POST", "/api/onboarding", map[string]any{"name": "Clínica Sol", "area": "Psicologia", "publicUsername": "clinicasol",
		"services": []map[string]any{{"name": "Psicoterapia", "duration": 50, "priceCents": 20000}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	p.paulaID, p.paula = e.Invite(p.owner, "Paula Lima", "paula.lima@example.com")
	p.ruiID, p.rui = e.Invite(p.owner, "Rui Alves", "rui.alves@example.com")
	if _, err := e.DB.ExecContext(context.Background(), `UPDATE professionals SET council = 'CRP', council_uf = 'SP', council_number = '06/12345' WHERE id = ?`, p.paulaID); err != nil {
		t.Fatal(err)
	}
	var svcs []struct{ ID string }
	p.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
	r := e.Client().Do("POST", "/api/public/profiles/clinicasol/bookings", map[string]string{"professionalId": p.paulaID, "serviceId": svcs[0].ID,
		"date": "2026-11-24", "time": "10:00", "clientName": "Clara Nunes", "clientPhone": "(11) 98888-1212", "clientEmail": "clara@example.com"})
	if r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	var booked struct{ Token string }
	r.JSON(t, &booked)
	p.link = booked.Token
	var list struct{ Appointments []struct{ ID string } }
	p.paula.Do("GET", "/api/appointments?from=2026-11-24&to=2026-11-24", nil).JSON(t, &list)
	p.appointment = list.Appointments[0].ID
	return p
}

const (
	marker = "MARCADOR-PRONTUARIO-9931"
	secret = "MARCADOR-SIGILOSO-4417"
)

// The check: a psychologist writes an evolution after a session; a
// colleague and the owner cannot read it; a correction keeps both versions,
// signed; every read is in the log; no table nor file holds the note's
// plaintext; nothing can rewrite or delete an entry.
func TestRecord_WrittenByItsProfessionalReadByNoOneElse(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		write := func(c *servertest.Client, body map[string]string) *servertest.Response {
			return c.Do("POST", "/api/records/entries", body)
		}
		evolution := map[string]string{"client": p.appointment, "appointmentId": p.appointment, "kind": "prontuario", "template": "evolucao",
			"body": marker + " — sessão produtiva"}
		if r := write(p.paula, evolution); r.StatusCode != 400 || !strings.Contains(string(r.Body), "depois que ele começa") {
			t.Fatalf("an entry before the session began: %d %s", r.StatusCode, r.Body)
		}
		p.later(e, 26*time.Hour) // 2026-11-24 11:00 in São Paulo: the 10:00 session has begun
		var rec record
		if r := p.paula.Do("GET", "/api/records?client="+p.appointment, nil); r.StatusCode != 200 || strings.Contains(string(r.Body), `"id"`) {
			t.Fatalf("before the first entry: %d %s", r.StatusCode, r.Body)
		}
		if r := write(p.paula, evolution); r.StatusCode != 201 {
			t.Fatalf("evolution: %d %s", r.StatusCode, r.Body)
		}
		if r := write(p.paula, map[string]string{"client": p.appointment, "kind": "sigiloso", "template": "livre", "sessionDate": "2026-11-24", "body": secret}); r.StatusCode != 201 {
			t.Fatalf("sigiloso: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rec)
		}
		if rec.Record == nil || rec.Record.Client.Name != "Clara Nunes" || len(rec.Record.Entries) != 2 {
			t.Fatalf("record: %+v", rec.Record)
		}
		first := rec.Record.Entries[0][0]
		for _, es := range rec.Record.Entries {
			if es[0].Kind == "prontuario" {
				first = es[0]
			}
		}
		if first.Signature != "assinado por Paula Lima, CRP 06/12345, em 25/11/2026 11:00" && first.Signature != "assinado por Paula Lima, CRP 06/12345, em 24/11/2026 11:00" {
			t.Fatalf("signature: %q", first.Signature)
		}

		// A colleague and the owner read nothing of it.
		for who, c := range map[string]*servertest.Client{"colleague": p.rui, "owner": p.owner} {
			for _, path := range []string{"/api/records?client=" + p.appointment, "/api/records/" + rec.Record.ID + "/log"} {
				r := c.Do("GET", path, nil)
				if r.StatusCode/100 == 2 || strings.Contains(string(r.Body), marker) {
					t.Errorf("%s GET %s: %d %s", who, path, r.StatusCode, r.Body)
				}
			}
			r := c.Do("POST", "/api/records/entries/"+first.EntryID+"/versions", map[string]string{"body": "outra", "reason": "intrusa"})
			if r.StatusCode != http.StatusNotFound {
				t.Errorf("%s corrects: %d %s", who, r.StatusCode, r.Body)
			}
		}
		// The owner as a professional of the team (not Paula) still reads nothing.
		if r := p.owner.Do("PUT", "/api/records/self", map[string]string{"professionalId": p.ruiID}); r.StatusCode != 200 {
			t.Fatalf("self: %d %s", r.StatusCode, r.Body)
		}
		if r := p.owner.Do("GET", "/api/records?client="+p.appointment, nil); r.StatusCode != 404 {
			t.Errorf("the owner as Rui: %d %s", r.StatusCode, r.Body)
		}

		// A correction keeps both versions, each signed, the new one with its reason.
		p.later(e, time.Hour)
		if r := p.paula.Do("POST", "/api/records/entries/"+first.EntryID+"/versions", map[string]string{"body": marker + " — sessão produtiva; retomar tema na próxima", "reason": "Faltou o combinado"}); r.StatusCode != 201 {
			t.Fatalf("correction: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rec)
		}
		var versions []entry
		for _, es := range rec.Record.Entries {
			if es[0].EntryID == first.EntryID {
				versions = es
			}
		}
		if len(versions) != 2 || versions[0].Version != 2 || versions[0].Reason != "Faltou o combinado" || versions[1].Body != first.Body ||
			!strings.HasPrefix(versions[0].Signature, "assinado por Paula Lima, CRP 06/12345, em ") || versions[0].Signature == versions[1].Signature {
			t.Fatalf("versions: %+v", versions)
		}

		// Every read and write is in the log, and only Paula reads it.
		var log struct {
			Log []struct{ Who, Action string }
		}
		p.paula.Do("GET", "/api/records/"+rec.Record.ID+"/log", nil).JSON(t, &log)
		count := map[string]int{}
		for _, l := range log.Log {
			if l.Who != "Paula Lima" {
				t.Errorf("log line by %q", l.Who)
			}
			count[l.Action]++
		}
		if count["write"] != 2 || count["correct"] != 1 || count["read"] != 0 {
			t.Fatalf("log: %+v", count)
		}
		e.Clock.Advance(time.Minute)
		p.paula.Do("GET", "/api/records?client="+p.appointment, nil)
		p.paula.Do("GET", "/api/records/"+rec.Record.ID+"/log", nil).JSON(t, &log)
		if log.Log[0].Action != "read" {
			t.Fatalf("a read is not logged: %+v", log.Log[0])
		}

		// Append-only: no statement rewrites or deletes an entry or a log line.
		ctx := context.Background()
		for _, q := range []string{`UPDATE record_entries SET body = 'x'`, `DELETE FROM record_entries`, `UPDATE record_log SET action = 'x'`, `DELETE FROM record_log`} {
			if _, err := e.DB.ExecContext(ctx, q); err == nil {
				t.Errorf("%s was allowed", q)
			}
		}

		// Nothing readable of the notes in any table or any file of the database.
		for _, table := range []string{"records", "record_entries", "record_log", "record_keys"} {
			var n int
			if err := e.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil || n == 0 {
				t.Fatalf("%s: %d %v", table, n, err)
			}
		}
		if found := e.InFiles(t, []string{marker, secret, "sessão produtiva", "Faltou o combinado"}); len(found) > 0 {
			t.Errorf("the notes' plaintext in the database's files: %v", found)
		}
	})
}

// No outward path carries a note: the owner's screens, exports and LGPD
// copies, the calendar feed, every e-mail and the server's log.
func TestRecord_NoOutwardPathCarriesANote(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		p.later(e, 26*time.Hour)
		if r := p.paula.Do("POST", "/api/records/entries", map[string]string{"client": p.appointment, "appointmentId": p.appointment, "kind": "prontuario",
			"template": "evolucao", "body": marker}); r.StatusCode != 201 {
			t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
		}
		if r := p.paula.Do("POST", "/api/records/entries", map[string]string{"client": p.appointment, "kind": "sigiloso", "template": "livre",
			"sessionDate": "2026-11-24", "body": secret}); r.StatusCode != 201 {
			t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
		}
		var feed struct{ URL string }
		p.owner.Do("POST", "/api/calendar-feeds", map[string]any{"professionalId": p.paulaID}).JSON(t, &feed)
		reads := []string{"/api/appointments?from=2026-11-01&to=2026-12-31", "/api/appointments/" + p.appointment, "/api/clients", "/api/clients/export",
			"/api/clients/data?key=" + p.appointment, "/api/clients/history?key=" + p.appointment, "/api/reports", "/api/dashboard", "/api/notifications",
			"/api/account/data", "/api/agenda/grid?from=2026-11-23&to=2026-11-29"}
		for _, path := range reads {
			for who, c := range map[string]*servertest.Client{"owner": p.owner, "paula": p.paula} {
				r := c.Do("GET", path, nil)
				for _, m := range []string{marker, secret} {
					if strings.Contains(string(r.Body), m) {
						t.Errorf("%s GET %s carries a note: %s", who, path, r.Body)
					}
				}
			}
		}
		if feed.URL != "" {
			r := e.Client().Do("GET", feed.URL[strings.Index(feed.URL, "/calendar/"):], nil)
			if r.StatusCode != 200 || strings.Contains(string(r.Body), marker) {
				t.Errorf("calendar feed: %d", r.StatusCode)
			}
		}
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, marker) || strings.Contains(m.Raw, secret) {
				t.Errorf("an e-mail carries a note: %s", m.Name)
			}
		}
		if logs := e.Logs.String(); strings.Contains(logs, marker) || strings.Contains(logs, secret) || logs == "" {
			t.Errorf("the server's log (%d bytes) carries a note or logged nothing", len(logs))
		}
	})
}

// An account that keeps a record is not deleted: the record's retention
// outlives it, and the owner is told why.
func TestRecord_KeepsTheAccountFromDeletion(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		if r := p.paula.Do("POST", "/api/records/entries", map[string]string{"client": p.appointment, "kind": "prontuario", "template": "livre",
			"sessionDate": "2026-11-20", "body": marker}); r.StatusCode != 201 {
			t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
		}
		r := p.owner.Do("DELETE", "/api/account", map[string]string{"password": "senha-da-dona", "confirmation": "EXCLUIR"})
		if r.StatusCode != http.StatusConflict || r.Err(t).Error.Code != "records_kept" {
			t.Fatalf("deleting an account with a record: %d %s", r.StatusCode, r.Body)
		}
		if r := p.owner.Do("GET", "/api/me", nil); r.StatusCode != 200 {
			t.Fatalf("the account after the refusal: %d", r.StatusCode)
		}
	})
}

// The client's erase anonymises their bookings and keeps the sealed record
// for its legal retention, telling the owner until when.
func TestRecord_AClientsEraseKeepsTheSealedRecord(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		if r := p.paula.Do("POST", "/api/records/entries", map[string]string{"client": p.appointment, "kind": "prontuario", "template": "livre",
			"sessionDate": "2026-11-20", "body": marker}); r.StatusCode != 201 {
			t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
		}
		var out struct {
			Erased, Records     int
			KeptUntil, LawUntil string
		}
		var h struct{ Client struct{ Identifier string } }
		p.owner.Do("GET", "/api/clients/history?key="+p.appointment, nil).JSON(t, &h)
		if r := p.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": h.Client.Identifier, "confirm": true}); r.StatusCode != 200 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &out)
		}
		if out.Erased != 1 || out.Records != 1 || out.KeptUntil != "2031-11-23" || out.LawUntil != "2046-11-23" {
			t.Fatalf("erase answer: %+v", out)
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM record_entries`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("entries after the erase: %d %v", n, err)
		}
		var notes struct {
			Notifications []struct{ Description string }
		}
		p.owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		told := false
		for _, n := range notes.Notifications {
			told = told || strings.Contains(n.Description, "pode ser eliminado a partir de 23/11/2031") && strings.Contains(n.Description, "até 23/11/2046")
		}
		if !told {
			t.Fatalf("the owner is not told until when: %+v", notes)
		}
		// (That the erase leaves the client's contacts nowhere in the files is
		// TestErase_FindsTheClientByReferenceAndNoOneElse's, internal/agenda.)
		if found := e.InFiles(t, []string{marker}); len(found) > 0 {
			var warned []string
			for _, l := range strings.Split(e.Logs.String(), "\n") {
				if strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR") {
					warned = append(warned, l)
				}
			}
			t.Errorf("the erased client or the note in the database's files: %v (the server warned: %v)", found, warned)
		}
	})
}

// The client's copy: the prontuário part only, never the sigiloso; through
// the private link only once the professional allows it; every copy logged.
func TestRecord_TheClientsCopyIsTheProntuarioPartWhenAllowed(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		var rec record
		for _, body := range []map[string]string{
			{"client": p.appointment, "kind": "prontuario", "template": "livre", "sessionDate": "2026-11-20", "body": marker},
			{"client": p.appointment, "kind": "sigiloso", "template": "livre", "sessionDate": "2026-11-20", "body": secret},
		} {
			if r := p.paula.Do("POST", "/api/records/entries", body); r.StatusCode != 201 {
				t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
			} else {
				r.JSON(t, &rec)
			}
		}
		client := e.Client()
		if r := client.Do("GET", "/api/public/bookings/"+p.link+"/record", nil); r.StatusCode != 404 {
			t.Fatalf("the client's copy before it was allowed: %d %s", r.StatusCode, r.Body)
		}
		if r := p.rui.Do("PUT", "/api/records/"+rec.Record.ID+"/client-copy", map[string]bool{"allow": true}); r.StatusCode != 404 {
			t.Fatalf("a colleague allows it: %d %s", r.StatusCode, r.Body)
		}
		if r := p.paula.Do("PUT", "/api/records/"+rec.Record.ID+"/client-copy", map[string]bool{"allow": true}); r.StatusCode != 200 {
			t.Fatalf("allow: %d %s", r.StatusCode, r.Body)
		}
		var copy struct {
			Practice, Professional, Council, Client string
			Entries                                 [][]entry
		}
		for who, get := range map[string]func() *servertest.Response{
			"client":       func() *servertest.Response { return client.Do("GET", "/api/public/bookings/"+p.link+"/record", nil) },
			"professional": func() *servertest.Response { return p.paula.Do("GET", "/api/records/"+rec.Record.ID+"/copy", nil) },
		} {
			r := get()
			if r.StatusCode != 200 || strings.Contains(string(r.Body), secret) || !strings.Contains(string(r.Body), marker) {
				t.Fatalf("%s's copy: %d %s", who, r.StatusCode, r.Body)
			}
			r.JSON(t, &copy)
			if copy.Practice != "Clínica Sol" || copy.Professional != "Paula Lima" || copy.Council != "CRP 06/12345" || copy.Client != "Clara Nunes" || len(copy.Entries) != 1 {
				t.Fatalf("%s's copy: %+v", who, copy)
			}
		}
		var log struct {
			Log      []struct{ Who, Action string }
			TimeZone string
		}
		p.paula.Do("GET", "/api/records/"+rec.Record.ID+"/log", nil).JSON(t, &log)
		if log.TimeZone != "America/Sao_Paulo" { // the practice's, for the screen to show the times in
			t.Fatalf("the log's zone: %q", log.TimeZone)
		}
		seen := map[string]string{}
		for _, l := range log.Log {
			seen[l.Action] = l.Who
		}
		if seen["client-read"] != "Cliente (link privado)" || seen["print"] != "Paula Lima" || seen["share"] != "Paula Lima" {
			t.Fatalf("log: %+v", log.Log)
		}
		// The link is anonymous: reading it again and again logs the first
		// read of the day only, and the next day's first read again.
		clientReads := func() int {
			var log struct{ Log []struct{ Action string } }
			p.paula.Do("GET", "/api/records/"+rec.Record.ID+"/log", nil).JSON(t, &log)
			n := 0
			for _, l := range log.Log {
				if l.Action == "client-read" {
					n++
				}
			}
			return n
		}
		for range 5 {
			if r := client.Do("GET", "/api/public/bookings/"+p.link+"/record", nil); r.StatusCode != 200 {
				t.Fatalf("reading again: %d %s", r.StatusCode, r.Body)
			}
		}
		if n := clientReads(); n != 1 {
			t.Fatalf("client reads logged after 6 reads in a day: %d", n)
		}
		p.later(e, 25*time.Hour)
		client.Do("GET", "/api/public/bookings/"+p.link+"/record", nil)
		client.Do("GET", "/api/public/bookings/"+p.link+"/record", nil)
		if n := clientReads(); n != 2 {
			t.Fatalf("client reads logged the next day: %d", n)
		}
		if r := p.paula.Do("PUT", "/api/records/"+rec.Record.ID+"/client-copy", map[string]bool{"allow": false}); r.StatusCode != 200 {
			t.Fatalf("stop: %d %s", r.StatusCode, r.Body)
		}
		if r := client.Do("GET", "/api/public/bookings/"+p.link+"/record", nil); r.StatusCode != 404 {
			t.Fatalf("the client's copy after it was stopped: %d %s", r.StatusCode, r.Body)
		}
	})
}

// Nothing ends a record by itself: its professional destroys it, signed,
// no sooner than 5 years after the last entry; the act and the log stay. The
// owner's export for an incident notice lists the clients, never a note.
func TestRecord_RetentionDestructionAndTheIncidentExport(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		var rec record
		if r := p.paula.Do("POST", "/api/records/entries", map[string]string{"client": p.appointment, "kind": "prontuario", "template": "livre",
			"sessionDate": "2026-11-20", "body": marker}); r.StatusCode != 201 {
			t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rec)
		}
		r := p.owner.Do("GET", "/api/records/holders.csv?professional="+p.paulaID, nil)
		if r.StatusCode != 200 || !strings.Contains(string(r.Body), "Clara Nunes;11988881212;clara@example.com;23/11/2026;23/11/2026") || strings.Contains(string(r.Body), marker) {
			t.Fatalf("holders: %d %s", r.StatusCode, r.Body)
		}
		if r := p.paula.Do("GET", "/api/records/holders.csv?professional="+p.paulaID, nil); r.StatusCode != 403 {
			t.Fatalf("a professional exports the holders: %d", r.StatusCode)
		}
		var list struct {
			Records []struct {
				ID, Client, KeptUntil, LawUntil string
				Destroyed                       bool
			}
		}
		p.paula.Do("GET", "/api/records/list", nil).JSON(t, &list)
		if len(list.Records) != 1 || list.Records[0].Client != "Clara Nunes" || list.Records[0].KeptUntil != "2031-11-23" || list.Records[0].LawUntil != "2046-11-23" {
			t.Fatalf("list: %+v", list)
		}
		destroy := func(c *servertest.Client, word string) *servertest.Response {
			return c.Do("POST", "/api/records/"+rec.Record.ID+"/destroy", map[string]string{"confirm": word})
		}
		if r := destroy(p.paula, "ELIMINAR"); r.StatusCode != 409 {
			t.Fatalf("destroyed within its retention: %d %s", r.StatusCode, r.Body)
		}
		e.Clock.Advance(5*366*24*time.Hour + time.Hour)
		for _, c := range []*servertest.Client{p.paula, p.rui} {
			c.Token = ""
		}
		if r := p.paula.Login("paula.lima@example.com", "senha-propria-1"); r.StatusCode != 200 {
			t.Fatalf("login: %d %s", r.StatusCode, r.Body)
		}
		if r := p.rui.Login("rui.alves@example.com", "senha-propria-1"); r.StatusCode != 200 {
			t.Fatalf("login: %d %s", r.StatusCode, r.Body)
		}
		if r := destroy(p.rui, "ELIMINAR"); r.StatusCode != 404 {
			t.Fatalf("a colleague destroys it: %d %s", r.StatusCode, r.Body)
		}
		if r := destroy(p.paula, "sim"); r.StatusCode != 400 {
			t.Fatalf("destroyed without the word: %d %s", r.StatusCode, r.Body)
		}
		if r := destroy(p.paula, "ELIMINAR"); r.StatusCode != 200 {
			t.Fatalf("destroy: %d %s", r.StatusCode, r.Body)
		}
		ctx := context.Background()
		var entries, acts int
		var by string
		if err := e.DB.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM record_entries), (SELECT COUNT(*) FROM record_destructions), (SELECT by_name FROM record_destructions)`).
			Scan(&entries, &acts, &by); err != nil || entries != 0 || acts != 1 || by != "Paula Lima" {
			t.Fatalf("after the destruction: %d entries, %d acts by %q, %v", entries, acts, by, err)
		}
		var log struct {
			Log []struct{ Who, Action string }
		}
		p.paula.Do("GET", "/api/records/"+rec.Record.ID+"/log", nil).JSON(t, &log)
		if len(log.Log) == 0 || log.Log[0].Action != "destroy" {
			t.Fatalf("log: %+v", log.Log)
		}
		exported := false
		for _, l := range log.Log {
			exported = exported || l.Action == "export" && l.Who == "Clínica Sol (titular)"
		}
		if !exported {
			t.Fatalf("the owner's export is not in the log: %+v", log.Log)
		}
		p.paula.Do("GET", "/api/records/list", nil).JSON(t, &list)
		if len(list.Records) != 1 || !list.Records[0].Destroyed || list.Records[0].Client != "" {
			t.Fatalf("list after: %+v", list)
		}
		if found := e.InFiles(t, []string{marker}); len(found) > 0 {
			t.Errorf("the destroyed note in the files: %v", found)
		}
	})
}

// A record's register of documents issued, the summaries its author shows
// the owner or a colleague (each reader sees only theirs), and a supervisor's
// co-signature of one version — all logged, the register append-only.
func TestRecord_DocumentsSummariesAndCosign(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		var rec struct {
			Record struct {
				ID      string
				Entries [][]struct {
					ID     string
					Cosign *struct {
						SupervisorID string
						Signed       bool
						Signature    string
					}
				}
				Documents []struct{ IssuedOn, Purpose, Recipient, Signature string }
				Shares    []struct{ Reader, Summary string }
			}
		}
		if r := p.paula.Do("POST", "/api/records/entries", map[string]string{"client": p.appointment, "kind": "prontuario", "template": "livre",
			"sessionDate": "2026-11-20", "body": marker}); r.StatusCode != 201 {
			t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rec)
		}
		id, version := rec.Record.ID, rec.Record.Entries[0][0].ID
		if r := p.paula.Do("POST", "/api/records/"+id+"/documents", map[string]string{"issuedOn": "2026-11-21", "purpose": "Atestado de comparecimento", "recipient": "Empresa Alfa"}); r.StatusCode != 201 {
			t.Fatalf("document: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rec)
		}
		if d := rec.Record.Documents; len(d) != 1 || d[0].Purpose != "Atestado de comparecimento" || d[0].Recipient != "Empresa Alfa" || !strings.HasPrefix(d[0].Signature, "assinado por Paula Lima, CRP 06/12345") {
			t.Fatalf("documents: %+v", d)
		}
		if r := p.paula.Do("POST", "/api/records/"+id+"/documents", map[string]string{"issuedOn": "2027-01-01", "purpose": "x", "recipient": "y"}); r.StatusCode != 400 {
			t.Fatalf("a document dated ahead: %d", r.StatusCode)
		}
		for reader, text := range map[string]string{"owner": "Resumo para a titular", p.ruiID: "Resumo para o Rui"} {
			if r := p.paula.Do("PUT", "/api/records/"+id+"/share", map[string]string{"reader": reader, "summary": text}); r.StatusCode != 200 {
				t.Fatalf("share: %d %s", r.StatusCode, r.Body)
			}
		}
		if r := p.paula.Do("PUT", "/api/records/"+id+"/share", map[string]string{"reader": p.paulaID, "summary": "a mim"}); r.StatusCode != 400 {
			t.Fatalf("shared with herself: %d", r.StatusCode)
		}
		var team struct {
			Self       string
			Colleagues []struct{ ID, Name string }
		}
		p.paula.Do("GET", "/api/records/team", nil).JSON(t, &team)
		if team.Self != p.paulaID || len(team.Colleagues) != 1 || team.Colleagues[0].ID != p.ruiID || team.Colleagues[0].Name != "Rui Alves" {
			t.Fatalf("the team a professional can name: %+v", team)
		}
		if r := p.paula.Do("PUT", "/api/records/versions/"+version+"/cosign", map[string]string{"supervisorId": p.ruiID}); r.StatusCode != 200 {
			t.Fatalf("cosign request: %d %s", r.StatusCode, r.Body)
		}
		type shared struct {
			Shared []struct {
				Summary string
				Entry   *struct{ ID, Body string }
			}
		}
		var toOwner, toRui shared
		p.owner.Do("GET", "/api/records/shared", nil).JSON(t, &toOwner)
		p.rui.Do("GET", "/api/records/shared", nil).JSON(t, &toRui)
		if len(toOwner.Shared) != 1 || toOwner.Shared[0].Summary != "Resumo para a titular" {
			t.Fatalf("shared with the owner: %+v", toOwner)
		}
		if len(toRui.Shared) != 2 {
			t.Fatalf("shared with Rui: %+v", toRui)
		}
		sawSummary, sawEntry := false, false
		for _, x := range toRui.Shared {
			sawSummary = sawSummary || x.Summary == "Resumo para o Rui"
			sawEntry = sawEntry || x.Entry != nil && x.Entry.ID == version && x.Entry.Body == marker
		}
		if !sawSummary || !sawEntry {
			t.Fatalf("shared with Rui: %+v", toRui)
		}
		if r := p.rui.Do("GET", "/api/records?client="+p.appointment, nil); r.StatusCode != 404 {
			t.Fatalf("the supervisor reads the whole record: %d %s", r.StatusCode, r.Body)
		}
		if r := p.rui.Do("POST", "/api/records/versions/"+version+"/cosign", nil); r.StatusCode != 200 {
			t.Fatalf("cosign: %d %s", r.StatusCode, r.Body)
		}
		if r := p.rui.Do("POST", "/api/records/versions/"+version+"/cosign", nil); r.StatusCode != 409 {
			t.Fatalf("cosigned twice: %d %s", r.StatusCode, r.Body)
		}
		if r := p.paula.Do("POST", "/api/records/versions/"+version+"/cosign", nil); r.StatusCode != 404 {
			t.Fatalf("the author cosigns: %d %s", r.StatusCode, r.Body)
		}
		p.paula.Do("GET", "/api/records?client="+p.appointment, nil).JSON(t, &rec)
		c := rec.Record.Entries[0][0].Cosign
		if c == nil || !c.Signed || !strings.HasPrefix(c.Signature, "coassinado por Rui Alves, em ") || len(rec.Record.Shares) != 2 {
			t.Fatalf("after the co-signature: %+v %+v", c, rec.Record.Shares)
		}
		var log struct {
			Log []struct{ Who, Action string }
		}
		p.paula.Do("GET", "/api/records/"+id+"/log", nil).JSON(t, &log)
		got := map[string]bool{}
		for _, l := range log.Log {
			got[l.Who+" "+l.Action] = true
		}
		for _, want := range []string{"Paula Lima document", "Paula Lima share", "Paula Lima cosign-request", "Rui Alves cosign", "Rui Alves read-shared", "Clínica Sol (titular) read-shared"} {
			if !got[want] {
				t.Errorf("log lacks %q: %+v", want, log.Log)
			}
		}
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE record_documents SET issued_on = '2020-01-01'`); err == nil {
			t.Error("a document in the register was rewritten")
		}
		if found := e.InFiles(t, []string{"Atestado de comparecimento", "Empresa Alfa", "Resumo para"}); len(found) > 0 {
			t.Errorf("plaintext in the files: %v", found)
		}
	})
}

// A file attached to a record: kept sealed in the file store, opened for
// its professional alone, under the photo's upload rules.
func TestRecord_AttachedFilesAreSealedInTheStore(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := newPractice(t, e)
		var rec struct {
			Record struct {
				ID    string
				Files []struct {
					ID, Name, ContentType, Signature string
					Size                             int
				}
			}
		}
		if r := p.paula.Do("POST", "/api/records/entries", map[string]string{"client": p.appointment, "kind": "prontuario", "template": "livre",
			"sessionDate": "2026-11-20", "body": marker}); r.StatusCode != 201 {
			t.Fatalf("entry: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rec)
		}
		pdf := []byte("%PDF-1.4\nLAUDO-ANEXO-6620 teste projetivo\n%%EOF\n")
		if r := p.paula.Upload("/api/records/"+rec.Record.ID+"/files", "file", "laudo clara.pdf", pdf); r.StatusCode != 201 {
			t.Fatalf("attach: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rec)
		}
		f := rec.Record.Files
		if len(f) != 1 || f[0].Name != "laudo clara.pdf" || f[0].ContentType != "application/pdf" || f[0].Size != len(pdf) || !strings.HasPrefix(f[0].Signature, "assinado por Paula Lima") {
			t.Fatalf("files: %+v", f)
		}
		if r := p.paula.Upload("/api/records/"+rec.Record.ID+"/files", "file", "nota.pdf", []byte("só texto, não é PDF")); r.StatusCode != 400 {
			t.Fatalf("a text file: %d %s", r.StatusCode, r.Body)
		}
		if r := p.paula.Upload("/api/records/"+rec.Record.ID+"/files", "file", "grande.pdf", append([]byte("%PDF-1.4\n"), make([]byte, 5<<20)...)); r.StatusCode != 413 {
			t.Fatalf("a file over 5 MB: %d", r.StatusCode)
		}
		if r := p.rui.Upload("/api/records/"+rec.Record.ID+"/files", "file", "x.pdf", pdf); r.StatusCode != 404 {
			t.Fatalf("a colleague attaches: %d %s", r.StatusCode, r.Body)
		}
		url := "/api/records/" + rec.Record.ID + "/files/" + f[0].ID
		r := p.paula.Do("GET", url, nil)
		if r.StatusCode != 200 || string(r.Body) != string(pdf) || !strings.Contains(r.Header.Get("Content-Disposition"), "laudo clara.pdf") {
			t.Fatalf("download: %d %q %s", r.StatusCode, r.Header.Get("Content-Disposition"), r.Body)
		}
		for who, c := range map[string]*servertest.Client{"colleague": p.rui, "owner": p.owner} {
			if r := c.Do("GET", url, nil); r.StatusCode != 404 {
				t.Errorf("%s downloads: %d", who, r.StatusCode)
			}
		}
		if _, err := e.DB.ExecContext(context.Background(), `DELETE FROM record_files`); err == nil {
			t.Error("an attached file's row was deleted")
		}
		// The store holds it sealed; the database neither its bytes nor its name.
		var stored []string
		_ = filepath.WalkDir(filepath.Join(e.Config.DataDir, "files"), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(path)
				stored = append(stored, string(b))
			}
			return nil
		})
		if len(stored) != 1 || strings.Contains(stored[0], "LAUDO-ANEXO-6620") {
			t.Fatalf("the store holds %d files, plaintext: %v", len(stored), len(stored) == 1 && strings.Contains(stored[0], "LAUDO-ANEXO-6620"))
		}
		if found := e.InFiles(t, []string{"LAUDO-ANEXO-6620", "laudo clara"}); len(found) > 0 {
			t.Errorf("plaintext in the database's files: %v", found)
		}
	})
}

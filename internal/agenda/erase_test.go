package agenda_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// An LGPD erase reaches one client of one owner by reference (issue 24):
// these tests read the whole database, every table and every text column,
// before and after.

// eraseShop is setup with a professional whose name no client's contains,
// so that a scan for a client's names finds only what is about them.
func eraseShop(t *testing.T, e *servertest.Env, email, username string) *shop {
	t.Helper()
	s := setup(t, e, email, username)
	if r := s.owner.Do("PUT", "/api/professionals/"+s.pro, map[string]string{"name": "Bruno Reis", "specialization": "Psicólogo"}); r.StatusCode != 200 {
		t.Fatalf("rename professional: %d %s", r.StatusCode, r.Body)
	}
	return s
}

func (s *shop) book(t *testing.T, e *servertest.Env, username, ip string, in map[string]string) {
	t.Helper()
	c := e.Client()
	c.ForwardedFor = ip
	body := map[string]string{"professionalId": s.pro, "serviceId": s.svc}
	for k, v := range in {
		body[k] = v
	}
	if r := c.Do("POST", "/api/public/profiles/"+username+"/bookings", body); r.StatusCode != 201 {
		t.Fatalf("book %v: %d %s", in, r.StatusCode, r.Body)
	}
}

func (s *shop) erase(t *testing.T, key string) int {
	t.Helper()
	r := s.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": key, "confirm": true})
	var out struct{ Erased int }
	r.JSON(t, &out)
	if r.StatusCode != 200 {
		t.Fatalf("erase %q: %d %s", key, r.StatusCode, r.Body)
	}
	return out.Erased
}

// row is one row of a table as text: every column, in the table's order.
type row struct {
	table string
	cols  []string
	text  []bool // which columns are text (the ones a scan reads)
}

func (r row) String() string { return r.table + "|" + strings.Join(r.cols, "|") }

// Text is the row's text columns, for a scan.
func (r row) Text() string {
	var b strings.Builder
	for i, c := range r.cols {
		if r.text[i] {
			b.WriteString(c)
			b.WriteByte('|')
		}
	}
	return b.String()
}

// dump reads every row of every table of the database, found in its schema.
func dump(t *testing.T, d *db.DB) []row {
	t.Helper()
	ctx := context.Background()
	type column struct {
		name string
		text bool
	}
	tables := map[string][]column{}
	var q string
	if d.Dialect == db.Postgres {
		q = `SELECT table_name, column_name, data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
			FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`
	} else {
		q = `SELECT m.name, c.name, upper(c.type) LIKE '%TEXT%' OR upper(c.type) LIKE '%CHAR%' OR upper(c.type) LIKE '%CLOB%' OR c.type = ''
			FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid`
	}
	err := db.Each(ctx, d, q, nil, func(r *sql.Rows) error {
		var table string
		var c column
		if err := r.Scan(&table, &c.name, &c.text); err != nil {
			return err
		}
		tables[table] = append(tables[table], c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"appointments", "notifications", "jobs", "rate_limits"} {
		if tables[want] == nil {
			t.Fatalf("the schema read found no table %s: %v", want, tables)
		}
	}
	var out []row
	for table, cols := range tables {
		names := make([]string, len(cols))
		text := make([]bool, len(cols))
		for i, c := range cols {
			names[i], text[i] = `CAST("`+c.name+`" AS TEXT)`, c.text
		}
		err := db.Each(ctx, d, `SELECT `+strings.Join(names, ", ")+` FROM "`+table+`"`, nil, func(r *sql.Rows) error {
			vals := make([]sql.NullString, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				return err
			}
			rw := row{table: table, cols: make([]string, len(cols)), text: text}
			for i, v := range vals {
				rw.cols[i] = "NULL"
				if v.Valid {
					rw.cols[i] = "'" + v.String + "'"
				}
			}
			out = append(out, rw)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// mentioning is the rows whose text carries any of the needles.
func mentioning(rows []row, needles []string) []row {
	var out []row
	for _, r := range rows {
		text := r.Text()
		for _, n := range needles {
			if mentions(text, n) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// mentions says whether text holds the needle; a short one ("Ana") only as
// a word of its own, since random text — a password hash's base64 — holds
// any three letters now and then (a run failed on "…mWXZAnaZ…").
func mentions(text, needle string) bool {
	if len(needle) >= 6 {
		return strings.Contains(text, needle)
	}
	word := func(b byte) bool {
		return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
	}
	for i := 0; ; {
		j := strings.Index(text[i:], needle)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(needle)
		if (start == 0 || !word(text[start-1])) && (end == len(text) || !word(text[end])) {
			return true
		}
		i = start + 1
	}
}

// unchanged fails unless every row of want is still there, byte for byte.
func unchanged(t *testing.T, want, now []row) {
	t.Helper()
	have := map[string]int{}
	for _, r := range now {
		have[r.String()]++
	}
	for _, r := range want {
		if have[r.String()] == 0 {
			t.Errorf("another client's row changed or is gone:\n%s", r)
			continue
		}
		have[r.String()]--
	}
}

// Round trip: a client who changed name, phone and e-mail twice, with a
// booking, a series, a move, queued and sent mail and notifications, is
// erased. Then no text column of any table holds any of their names,
// phones, e-mails or notes — except inside other clients' rows, which are
// byte-for-byte what they were: "Ana Paula" and "Dra Ana Lima" of the same
// owner (whose names contain the client's "Ana"), and another owner's
// client with the client's first e-mail.
func TestErase_FindsTheClientByReferenceAndNoOneElse(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := eraseShop(t, e, "dona@example.com", "dona")
		other := eraseShop(t, e, "outra@example.com", "outra")
		// correct is the owner's correction of a client's name and contacts.
		correct := func(from, name, phone, email string) string {
			t.Helper()
			r := s.owner.Do("PUT", "/api/clients/contact", map[string]string{"identifier": from, "name": name, "phone": phone, "email": email})
			var h struct{ Client struct{ Identifier string } }
			r.JSON(t, &h)
			if r.StatusCode != 200 {
				t.Fatalf("correct: %d %s", r.StatusCode, r.Body)
			}
			return h.Client.Identifier
		}

		// The client, as first booked, with a note only she has.
		s.book(t, e, "dona", "10.1.1.1", map[string]string{"date": "2026-11-26", "time": "10:00", "clientName": "Ana Rocha",
			"clientPhone": "(11) 95555-1111", "clientEmail": "ana.rocha@example.com", "notes": "Alergia a dipirona"})
		// Other clients: of the same owner, whose names hold hers, and of
		// another owner with her e-mail.
		s.book(t, e, "dona", "10.1.1.2", map[string]string{"date": "2026-11-26", "time": "11:00", "clientName": "Ana Paula",
			"clientPhone": "(11) 94444-1111", "clientEmail": "ana.paula@example.com"})
		if r := s.create(map[string]any{"date": "2026-11-27", "time": "09:00", "clientName": "Dra Ana Lima", "clientPhone": "(11) 94444-2222",
			"clientEmail": "dra.lima@example.com", "notifyClient": true}); r.StatusCode != 201 {
			t.Fatalf("create: %d %s", r.StatusCode, r.Body)
		}
		// Her contacts corrected too: a notification about a client, with no appointment.
		correct(clientKey("(11) 94444-2222", ""), "Dra Ana Lima", "(11) 94444-2222", "dra.lima@example.org")
		other.book(t, e, "outra", "10.1.1.3", map[string]string{"date": "2026-11-26", "time": "10:00", "clientName": "Mariana Reis",
			"clientPhone": "(21) 98888-0000", "clientEmail": "ana.rocha@example.com"})
		e.RunJobs() // sent mail keeps its message in the queue

		// A weekly series for her, with its confirmation and reminders.
		if r := s.create(map[string]any{"date": "2026-11-30", "time": "14:00", "clientName": "Ana Rocha", "clientPhone": "11955551111",
			"clientEmail": "ana.rocha@example.com", "notifyClient": true, "repeat": map[string]any{"every": "week", "count": 3}}); r.StatusCode != 201 {
			t.Fatalf("series: %d %s", r.StatusCode, r.Body)
		}
		// The owner corrects her name and contacts, twice; in between a
		// session moves and she is told at her new address.
		key := correct(clientKey("(11) 95555-1111", ""), "Ana R. Silva", "(11) 95555-2222", "ana.r@example.org")
		var list struct {
			Appointments []struct{ ID, ClientName, Date string }
		}
		s.owner.Do("GET", "/api/appointments?from=2026-12-07&to=2026-12-07", nil).JSON(t, &list)
		if len(list.Appointments) != 1 || list.Appointments[0].ClientName != "Ana R. Silva" {
			t.Fatalf("the second session: %+v", list)
		}
		if r := s.move(list.Appointments[0].ID, map[string]any{"date": "2026-12-08", "time": "15:00", "notifyClient": true}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		// At last she is just "Ana" — inside "Ana Paula" and "Dra Ana Lima".
		key = correct(key, "Ana", "(11) 95555-3333", "anars@example.net")
		// And she books again, as she is now.
		s.book(t, e, "dona", "10.1.1.1", map[string]string{"date": "2026-12-02", "time": "10:00", "clientName": "Ana",
			"clientPhone": "(11) 95555-3333", "clientEmail": "anars@example.net"})

		hers := []string{"Ana", "Ana Rocha", "Ana R. Silva", booking.SearchKey("Ana Rocha"), booking.SearchKey("Ana R. Silva"),
			"955551111", "955552222", "955553333", "95555-1111", "95555-2222", "95555-3333",
			"ana.rocha@example.com", "ana.r@example.org", "anars@example.net", "Alergia a dipirona", "dipirona"}
		others := []string{"Ana Paula", "ana.paula@", "944441111", "Dra Ana Lima", "dra.lima@", "944442222", "Mariana Reis", "988880000"}

		before := dump(t, e.DB)
		theirs := mentioning(before, others)
		if len(mentioning(before, hers)) < 10 || len(theirs) < 6 {
			t.Fatalf("the scenario wrote too little to check: %d rows about her, %d about the others", len(mentioning(before, hers)), len(theirs))
		}
		// What only she has, to look for in the database's own files.
		raw := []string{"Ana Rocha", "Ana R. Silva", booking.SearchKey("Ana Rocha"), booking.SearchKey("Ana R. Silva"),
			"955551111", "955552222", "955553333", "95555-1111", "95555-2222", "95555-3333", "ana.r@example.org", "anars@example.net", "dipirona"}
		if found := e.InFiles(t, raw); len(found) < 5 {
			t.Fatalf("the files hold too little of her before the erase to check: %v", found)
		}
		if n := s.erase(t, key); n != 5 {
			t.Fatalf("erased %d appointments, want 5 (a booking, 3 sessions, a booking)", n)
		}
		// Nothing readable is left in the files either: not in free pages
		// or the WAL (SQLite), not in dead row versions (PostgreSQL).
		for _, f := range e.InFiles(t, raw) {
			t.Errorf("the database's files still hold %s after the erase", f)
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
		// What stays is what the reports need, and the owner is told.
		var erased int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE user_id = ? AND client_name = 'Cliente removido'
			AND client_email = '' AND client_phone = '' AND notes = ''`, s.ownerID).Scan(&erased); err != nil || erased != 5 {
			t.Fatalf("erased appointments: %d %v", erased, err)
		}
		var told int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM notifications WHERE user_id = ? AND title = 'Dados de cliente excluídos (LGPD)'`,
			s.ownerID).Scan(&told); err != nil || told != 1 {
			t.Fatalf("the owner is told: %d %v", told, err)
		}
	})
}

// A client's stored e-mail is never a pattern: erasing one stored as
// "%@%.%" (from before addresses were checked), or "a@b.com", leaves every
// other job — other owners', and mail to maria@b.com — byte for byte, and
// takes the client's own jobs by reference.
func TestErase_AnEmailIsNotAPatternAndOtherOwnersKeepTheirMail(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		s := eraseShop(t, e, "dona@example.com", "dona")
		other := eraseShop(t, e, "outra@example.com", "outra")

		// Such an address is refused now, in pt-BR.
		c := e.Client()
		r := c.Do("POST", "/api/public/profiles/dona/bookings", map[string]string{"professionalId": s.pro, "serviceId": s.svc,
			"date": "2026-11-26", "time": "15:00", "clientName": "Curinga", "clientEmail": "%@%.%"})
		if r.StatusCode != 400 || r.Err(t).Error.Message != "Informe um e-mail válido." {
			t.Fatalf("%%@%%.%% booked: %d %s", r.StatusCode, r.Body)
		}
		// So it is written as an older version would have stored it, with a
		// queued e-mail to it that knows whose it is.
		loc, _ := time.LoadLocation("America/Sao_Paulo")
		start := time.Date(2026, 11, 26, 15, 0, 0, 0, loc)
		wild := uuid.NewString()
		if _, err := e.DB.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
			duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash,
			search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, 'Bruno Reis', 'Sessão', 60, 10000, 'Curinga', '%@%.%', '', '',
			'2026-11-26', '15:00', ?, 'confirmed', ?, ?, '%@%.%', ?, ?)`,
			wild, s.ownerID, s.pro, s.svc, start.UTC(), uuid.NewString(), booking.SearchKey("Curinga", "%@%.%"), e.Clock.Now(), e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		wildJob := uuid.NewString()
		if _, err := e.DB.ExecContext(ctx, `INSERT INTO jobs (id, kind, payload, run_at, max_attempts, created_at, user_id, appointment_id, client_key)
			VALUES (?, 'mail.send', '{"to":"%@%.%","subject":"Curinga"}', ?, 8, ?, ?, ?, '%@%.%')`,
			wildJob, e.Clock.Now(), e.Clock.Now(), s.ownerID, wild); err != nil {
			t.Fatal(err)
		}
		// Mail for everyone else: a@b.com and maria@b.com at this owner,
		// maria@b.com and x@y.com at another.
		s.book(t, e, "dona", "10.2.2.1", map[string]string{"date": "2026-11-26", "time": "10:00", "clientName": "Beto Quintas", "clientEmail": "a@b.com"})
		s.book(t, e, "dona", "10.2.2.2", map[string]string{"date": "2026-11-26", "time": "11:00", "clientName": "Maria Dias", "clientEmail": "maria@b.com"})
		other.book(t, e, "outra", "10.2.2.3", map[string]string{"date": "2026-11-26", "time": "10:00", "clientName": "Maria Dias", "clientEmail": "maria@b.com"})
		other.book(t, e, "outra", "10.2.2.4", map[string]string{"date": "2026-11-26", "time": "11:00", "clientName": "Xavier", "clientEmail": "x@y.com"})

		jobs := func() map[string]string {
			out := map[string]string{}
			for _, r := range dump(t, e.DB) {
				if r.table == "jobs" {
					out[strings.Trim(r.cols[0], "'")] = r.String() // by id
				}
			}
			return out
		}
		var beto string
		if err := e.DB.QueryRowContext(ctx, `SELECT id FROM appointments WHERE client_email = 'a@b.com'`).Scan(&beto); err != nil {
			t.Fatal(err)
		}
		// Beto's jobs: his confirmation and reminder, and the owner's e-mail naming him.
		isBetos := func(j string) bool {
			return strings.Contains(j, `"to":"a@b.com"`) || strings.Contains(j, "Beto Quintas") || strings.Contains(j, beto)
		}

		all := jobs()
		if len(all) < 10 {
			t.Fatalf("only %d jobs queued", len(all))
		}
		if n := s.erase(t, "%@%.%"); n != 1 {
			t.Fatalf("erased %d", n)
		}
		now := jobs()
		if _, ok := now[wildJob]; ok {
			t.Fatal("the erased client's queued e-mail is still there")
		}
		delete(all, wildJob)
		for id, j := range all {
			if now[id] != j {
				t.Errorf("erasing %%@%%.%% changed another job:\n%s\n%s", j, now[id])
			}
		}
		if len(now) != len(all) {
			t.Errorf("%d jobs, want %d", len(now), len(all))
		}

		if n := s.erase(t, "a@b.com"); n != 1 {
			t.Fatalf("erased %d", n)
		}
		after := jobs()
		gone := 0
		for id, j := range now {
			if isBetos(j) {
				gone++
				if _, ok := after[id]; ok {
					t.Errorf("Beto's job is still there: %s", j)
				}
				continue
			}
			if after[id] != j {
				t.Errorf("erasing a@b.com changed another job:\n%s\n%s", j, after[id])
			}
		}
		if gone < 3 || len(after) != len(now)-gone {
			t.Errorf("Beto had %d jobs; %d jobs before, %d after", gone, len(now), len(after))
		}
		maria := 0
		for _, j := range after {
			if strings.Contains(j, `"to":"maria@b.com"`) {
				maria++
			}
		}
		if maria != 2 {
			t.Errorf("%d e-mails to maria@b.com left, want 2 (one from each owner)", maria)
		}
	})
}

// Deleting an account takes its jobs too, queued or sent: their mail names
// its clients, and the jobs table has no foreign key to cascade through.
// Another owner's jobs stay.
func TestDeleteAccount_TakesTheOwnersJobs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := eraseShop(t, e, "dona@example.com", "dona")
		other := eraseShop(t, e, "outra@example.com", "outra")
		s.book(t, e, "dona", "10.3.3.1", map[string]string{"date": "2026-11-26", "time": "10:00", "clientName": "Rita Alves", "clientEmail": "rita@example.com"})
		e.RunJobs()
		s.book(t, e, "dona", "10.3.3.2", map[string]string{"date": "2026-11-26", "time": "11:00", "clientName": "Rita Alves", "clientEmail": "rita@example.com"})
		other.book(t, e, "outra", "10.3.3.3", map[string]string{"date": "2026-11-26", "time": "10:00", "clientName": "Lia Prado", "clientEmail": "lia@example.com"})
		count := func(userID string) int {
			var n int
			if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE user_id = ?`, userID).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		mine, theirs := count(s.ownerID), count(other.ownerID)
		if mine < 4 || theirs < 2 {
			t.Fatalf("jobs: %d of the owner, %d of the other", mine, theirs)
		}
		if r := s.owner.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"}); r.StatusCode != 200 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		if n := count(s.ownerID); n != 0 {
			t.Fatalf("%d jobs of a deleted account left", n)
		}
		if n := count(other.ownerID); n != theirs {
			t.Fatalf("the other owner's jobs: %d, want %d", n, theirs)
		}
		for _, r := range mentioning(dump(t, e.DB), []string{"Rita Alves", "rita@example.com"}) {
			t.Errorf("a deleted account's client is still stored:\n%s", r)
		}
	})
}

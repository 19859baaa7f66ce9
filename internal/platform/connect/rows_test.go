package connect_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// rowFields are a per-professional connection's fields in the test's table.
var rowFields = []connect.Field{
	{Name: "account"},
	{Name: "password", Column: "secret_sealed", Secret: true},
}

// setupRows makes a table of connections that belong to a professional
// (several per owner), two owners, and their connections: u1 has two
// (p1, p2), u2 one (p3).
func setupRows(t *testing.T, d *db.DB) (*connect.Rows, *connect.Reads, *clock.Manual) {
	t.Helper()
	accounts, _, clk := setup(t, d) // makes u1 and the key
	ctx := context.Background()
	ts := "TIMESTAMP"
	if d.Dialect == db.Postgres {
		ts = "TIMESTAMPTZ"
	}
	if _, err := d.ExecContext(ctx, `CREATE TABLE kit_sources (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
		professional_id TEXT NOT NULL, account TEXT NOT NULL, secret_sealed TEXT NOT NULL,
		last_read_at `+ts+`, last_error TEXT NOT NULL DEFAULT '', last_error_at `+ts+`, failing_since `+ts+`, events INTEGER NOT NULL DEFAULT 0)`); err != nil {
		t.Fatal(err)
	}
	now := clk.Now()
	if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('u2', 'b@example.com', 'x', ?, ?)`, now, now); err != nil {
		t.Fatal(err)
	}
	rows := &connect.Rows{Box: accounts.Box, Name: "kit", Table: "kit_sources", Scope: "professional_id"}
	for _, r := range [][4]string{{"s1", "u1", "p1", "pw-1"}, {"s2", "u1", "p2", "pw-2"}, {"s3", "u2", "p3", "pw-3"}} {
		sealed, err := rows.Seal(r[1], r[2], "password", r[3])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `INSERT INTO kit_sources (id, user_id, professional_id, account, secret_sealed) VALUES (?, ?, ?, ?, ?)`,
			r[0], r[1], r[2], "acc-"+r[0], sealed); err != nil {
			t.Fatal(err)
		}
	}
	return rows, &connect.Reads{DB: d, Clock: clk, Table: "kit_sources"}, clk
}

func TestRows_EachConnectionOpensWithItsOwnSealOnly(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		rows, _, _ := setupRows(t, d)

		// Each connection of one owner opens with its own secret.
		for id, want := range map[string]string{"s1": "pw-1", "s2": "pw-2"} {
			row, err := rows.Job(ctx, d, id, rowFields)
			if err != nil || row == nil || row.Values["password"] != want || row.Values["account"] != "acc-"+id || row.Owner != "u1" {
				t.Fatalf("%s: %+v %v", id, row, err)
			}
		}
		// A job holding only the id reads it with its own owner.
		if row, err := rows.Job(ctx, d, "s3", rowFields); err != nil || row == nil || row.Owner != "u2" || row.Scope != "p3" || row.Values["password"] != "pw-3" {
			t.Fatalf("job: %+v %v", row, err)
		}
		if row, err := rows.Job(ctx, d, "gone", rowFields); row != nil || err != nil {
			t.Fatalf("a gone row: %+v %v", row, err)
		}

		// A sealed secret is bound to its owner, scope and field: copied to
		// another owner's row, or another professional's, it never opens.
		var sealed string
		if err := d.QueryRowContext(ctx, `SELECT secret_sealed FROM kit_sources WHERE id = 's3'`).Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(sealed, "pw-3") {
			t.Fatal("the secret is stored in the clear")
		}
		if _, err := d.ExecContext(ctx, `UPDATE kit_sources SET secret_sealed = ? WHERE id = 's1'`, sealed); err != nil {
			t.Fatal(err)
		}
		if _, err := rows.Job(ctx, d, "s1", rowFields); !errors.Is(err, secretbox.ErrOpen) {
			t.Fatalf("another owner's seal opened: %v", err)
		}
		if _, err := rows.Open("u2", "p1", "password", sealed); !errors.Is(err, secretbox.ErrOpen) {
			t.Fatalf("another professional's seal opened: %v", err)
		}
		if _, err := rows.Open("u2", "p3", "account", sealed); !errors.Is(err, secretbox.ErrOpen) {
			t.Fatalf("another field's seal opened: %v", err)
		}
	})
}

func TestRows_TheSealsContextIsTheCalendarsOne(t *testing.T) {
	// Rows stored before the kit knew per-professional connections were
	// sealed as "<owner>:calendars.<professional>.<field>": they must keep
	// opening (no migration can re-seal them in SQL).
	box, err := secretbox.New([]byte(strings.Repeat("k", secretbox.KeySize)))
	if err != nil {
		t.Fatal(err)
	}
	rows := &connect.Rows{Box: box, Name: "calendars"}
	// The ICS address, CalDAV's address and password, Google's refresh token.
	for field, context := range map[string]string{
		"url": "u1:calendars.p1.url", "caldav.url": "u1:calendars.p1.caldav.url", "caldav.password": "u1:calendars.p1.caldav.password", "google": "u1:calendars.p1.google",
	} {
		old, err := box.Seal("secret of "+field, context)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := rows.Open("u1", "p1", field, old); err != nil || got != "secret of "+field {
			t.Fatalf("%s: %q %v", field, got, err)
		}
	}
}

// readHealth is a connection's health as the table holds it (the
// calendars' list reads it in its own join).
type readHealth struct {
	LastReadAt, LastErrorAt, FailingSince *time.Time
	LastError                             string
}

func health(t *testing.T, d *db.DB, id string) (readHealth, error) {
	t.Helper()
	var read, errAt, failing sql.NullTime
	var h readHealth
	err := d.QueryRowContext(context.Background(), `SELECT last_read_at, last_error, last_error_at, failing_since FROM kit_sources WHERE id = ?`, id).
		Scan(&read, &h.LastError, &errAt, &failing)
	h.LastReadAt, h.LastErrorAt, h.FailingSince = connect.TimeOf(read), connect.TimeOf(errAt), connect.TimeOf(failing)
	return h, err
}

func TestReads_AFailureKeepsItsStartAndAReadThatWorksClearsIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		_, reads, clk := setupRows(t, d)
		if r, err := health(t, d, "s1"); err != nil || r.LastReadAt != nil || r.LastError != "" || r.FailingSince != nil {
			t.Fatalf("fresh: %+v %v", r, err)
		}
		start := clk.Now()
		since, err := reads.Failed(ctx, d, "s1", "endereço não encontrado")
		if err != nil || !since.Equal(start) {
			t.Fatal(since, err)
		}
		clk.Advance(5 * time.Minute)
		if since, err := reads.Failed(ctx, d, "s1", "a agenda demorou demais para responder"); err != nil || !since.Equal(start) {
			t.Fatalf("a second failure moved the start: %v %v", since, err)
		}
		r, err := health(t, d, "s1")
		if err != nil || r.LastError != "a agenda demorou demais para responder" || !r.LastErrorAt.Equal(clk.Now()) || !r.FailingSince.Equal(start) {
			t.Fatalf("failing: %+v %v", r, err)
		}
		// The other connection is untouched.
		if r, _ := health(t, d, "s2"); r.LastError != "" {
			t.Fatalf("s2 caught s1's failure: %+v", r)
		}

		clk.Advance(time.Minute)
		if err := reads.Worked(ctx, d, "s1", clk.Now(), "", map[string]any{"events": 7}); err != nil {
			t.Fatal(err)
		}
		r, _ = health(t, d, "s1")
		if r.LastReadAt == nil || !r.LastReadAt.Equal(clk.Now()) || r.LastError != "" || r.LastErrorAt != nil || r.FailingSince != nil {
			t.Fatalf("worked: %+v", r)
		}
		var events int
		if err := d.QueryRowContext(ctx, `SELECT events FROM kit_sources WHERE id = 's1'`).Scan(&events); err != nil || events != 7 {
			t.Fatal(events, err)
		}
		// A read that worked only in part keeps its note, yet is not failing.
		if err := reads.Worked(ctx, d, "s1", clk.Now(), "1 agenda não encontrada", nil); err != nil {
			t.Fatal(err)
		}
		if r, _ := health(t, d, "s1"); r.LastError != "1 agenda não encontrada" || r.LastErrorAt == nil || r.FailingSince != nil {
			t.Fatalf("partly: %+v", r)
		}
		if err := reads.Restart(ctx, d, "s1"); err != nil {
			t.Fatal(err)
		}
		if r, _ := health(t, d, "s1"); r.LastReadAt != nil || r.LastError != "" || r.LastErrorAt != nil {
			t.Fatalf("restarted: %+v", r)
		}
	})
}

package db

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

// The no-show migration rebuilds SQLite's appointments table: every row,
// index, version trigger and foreign key must come through it.
func TestNoShowMigration_KeepsSQLiteAppointmentsWhole(t *testing.T) {
	ctx := context.Background()
	d, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "agendei.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	sub, _ := fs.Sub(migrations, "migrations/sqlite")
	p, err := goose.NewProvider(goose.DialectSQLite3, d.w, sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 15); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, q := range []string{
		`INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('u1', 'u1@example.com', 'x', ?, ?)`,
		`INSERT INTO appointments (id, user_id, professional_name, service_name, duration, price_cents, client_name, appointment_date, appointment_time,
			starts_at, status, cancel_token_hash, created_at, updated_at, search_key, client_key, buffer_before, buffer_after)
			VALUES ('a1', 'u1', 'Ana', 'Sessão', 50, 12000, 'Maria', '2026-11-20', '10:00', ?, 'completed', 'h1', ?, ?, 'maria', '1199', 5, 10)`,
		`INSERT INTO notifications (id, user_id, type, title, appointment_id, created_at) VALUES ('n1', 'u1', 'appointment', 'Novo', 'a1', ?)`,
	} {
		args := []any{now, now, now}[:strings.Count(q, "?")]
		if _, err := d.w.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q[:40], err)
		}
	}
	// 00054 itself: a later migration (00056) drops the grid's triggers.
	if _, err := p.UpTo(ctx, 54); err != nil {
		t.Fatal(err)
	}
	var name, status string
	var price, before, after int
	if err := d.QueryRowContext(ctx, `SELECT client_name, status, price_cents, buffer_before, buffer_after FROM appointments WHERE id = 'a1'`).
		Scan(&name, &status, &price, &before, &after); err != nil || name != "Maria" || status != "completed" || price != 12000 || before != 5 || after != 10 {
		t.Fatalf("row after the rebuild: %v %s %s %d %d %d", err, name, status, price, before, after)
	}
	var version int64
	_ = d.QueryRowContext(ctx, `SELECT version FROM data_versions WHERE user_id = 'u1'`).Scan(&version)
	if _, err := d.ExecContext(ctx, `UPDATE appointments SET status = 'no_show' WHERE id = 'a1'`); err != nil {
		t.Fatalf("no_show refused: %v", err)
	}
	var after2 int64
	_ = d.QueryRowContext(ctx, `SELECT version FROM data_versions WHERE user_id = 'u1'`).Scan(&after2)
	if after2 != version+1 {
		t.Fatalf("the version trigger did not come through: %d → %d", version, after2)
	}
	if _, err := d.ExecContext(ctx, `UPDATE appointments SET status = 'lost' WHERE id = 'a1'`); err == nil {
		t.Fatal("the status check did not come through")
	}
	// (appointments_owner_day came through too; 00025 replaced it with a
	// covering index, which 00029 dropped for it again.)
	for _, name := range []string{"appointments_owner_day", "appointments_owner_status", "appointments_owner_client", "appointments_owner_window", "appointments_professional_busy"} {
		var n int
		_ = d.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'appointments' AND name = ?`, name).Scan(&n)
		if n != 1 {
			t.Fatalf("index %s did not come through", name)
		}
	}
	// Foreign keys are on again and point at the new table: deleting the
	// appointment unlinks its notification; deleting the user removes both.
	if _, err := d.ExecContext(ctx, `DELETE FROM appointments WHERE id = 'a1'`); err != nil {
		t.Fatal(err)
	}
	var linked *string
	if err := d.QueryRowContext(ctx, `SELECT appointment_id FROM notifications WHERE id = 'n1'`).Scan(&linked); err != nil || linked != nil {
		t.Fatalf("notification link after delete: %v %v", err, linked)
	}
}

// 00054 rebuilds SQLite's appointments table again to allow
// 'awaiting_deposit' (issue 39): every column (name, type, NOT NULL,
// default), index and trigger gathered since 00016 must come through, and a hold standing at the upgrade
// (confirmed, its deposit pending) becomes awaiting_deposit — still busy.
func TestAwaitingDepositMigration_KeepsSQLiteAppointmentsWholeAndTurnsHolds(t *testing.T) {
	ctx := context.Background()
	d, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "agendei.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	sub, _ := fs.Sub(migrations, "migrations/sqlite")
	p, err := goose.NewProvider(goose.DialectSQLite3, d.w, sub)
	if err != nil {
		t.Fatal(err)
	}
	// Up to the migration before it, whichever lands as 00053: what that one
	// adds to appointments must come through the rebuild too.
	if _, err := p.UpTo(ctx, 53); err != nil {
		t.Fatal(err)
	}
	var before []string
	schema := func() []string {
		var out []string
		_ = Each(ctx, d, `SELECT type || ' ' || name FROM sqlite_master WHERE tbl_name = 'appointments' AND type IN ('index', 'trigger')
			UNION ALL SELECT 'column ' || name || ' ' || type || ' ' || "notnull" || ' ' || COALESCE(dflt_value, '') FROM pragma_table_info('appointments') ORDER BY 1`, nil,
			func(r *sql.Rows) error {
				var s string
				out = append(out, s)
				return r.Scan(&out[len(out)-1])
			})
		return out
	}
	before = schema()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, q := range []string{
		`INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('u1', 'u1@example.com', 'x', ?, ?)`,
		`INSERT INTO professionals (id, user_id, name, specialization, created_at, updated_at) VALUES ('p1', 'u1', 'Ana', 'Psicóloga', ?, ?)`,
		`INSERT INTO appointments (id, user_id, professional_id, professional_name, service_name, duration, price_cents, client_name, appointment_date, appointment_time,
			starts_at, status, cancel_token_hash, created_at, updated_at, search_key, client_key, series_id, client_answer)
			VALUES ('held', 'u1', 'p1', 'Ana', 'Sessão', 50, 12000, 'Maria', '2026-11-30', '10:00', ?, 'confirmed', 'h1', ?, ?, 'maria', '1199', 's1', '')`,
		`INSERT INTO appointments (id, user_id, professional_id, professional_name, service_name, duration, price_cents, client_name, appointment_date, appointment_time,
			starts_at, status, cancel_token_hash, created_at, updated_at, search_key, client_key, remind)
			VALUES ('plain', 'u1', 'p1', 'Ana', 'Sessão', 50, 12000, 'João', '2026-11-30', '11:00', ?, 'confirmed', 'h2', ?, ?, 'joao', '1198', TRUE)`,
		`INSERT INTO deposits (appointment_id, user_id, amount_cents, state, reference, expires_at, created_at, updated_at, appointment_date)
			VALUES ('held', 'u1', 3000, 'pending', 'r1', ?, ?, ?, '2026-11-30')`,
	} {
		args := []any{now, now, now}[:strings.Count(q, "?")]
		if _, err := d.w.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q[:40], err)
		}
	}
	// 00054 itself: a later migration (00056) drops the grid's triggers.
	if _, err := p.UpTo(ctx, 54); err != nil {
		t.Fatal(err)
	}
	if after := schema(); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("indexes and triggers after the rebuild:\n%v\nbefore:\n%v", after, before)
	}
	var held, plain, series, item, busy string
	var remind bool
	if err := d.QueryRowContext(ctx, `SELECT status, series_id FROM appointments WHERE id = 'held'`).Scan(&held, &series); err != nil {
		t.Fatal(err)
	}
	if err := d.QueryRowContext(ctx, `SELECT status, remind FROM appointments WHERE id = 'plain'`).Scan(&plain, &remind); err != nil {
		t.Fatal(err)
	}
	if held != "awaiting_deposit" || series != "s1" || plain != "confirmed" || !remind {
		t.Fatalf("after 00054: held %s (series %s), plain %s (remind %v)", held, series, plain, remind)
	}
	if err := d.QueryRowContext(ctx, `SELECT item FROM grid_items WHERE appointment_id = 'held'`).Scan(&item); err != nil || !strings.Contains(item, `"awaiting_deposit"`) {
		t.Fatalf("the grid's item of the hold: %v %s", err, item)
	}
	if err := d.QueryRowContext(ctx, `SELECT list FROM busy_days WHERE professional_id = 'p1' AND busy_date = '2026-11-30'`).Scan(&busy); err != nil ||
		!strings.Contains(busy, "10:00 50") || !strings.Contains(busy, "11:00 50") {
		t.Fatalf("busy_days after 00054: %v %q", err, busy)
	}
	// The new status holds time through the triggers; the check still refuses
	// what no code writes; the foreign keys are on again.
	if _, err := d.ExecContext(ctx, `UPDATE appointments SET status = 'cancelled' WHERE id = 'held'`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, `UPDATE appointments SET status = 'awaiting_deposit' WHERE id = 'held'`); err != nil {
		t.Fatal(err)
	}
	if err := d.QueryRowContext(ctx, `SELECT list FROM busy_days WHERE professional_id = 'p1' AND busy_date = '2026-11-30'`).Scan(&busy); err != nil || !strings.Contains(busy, "10:00 50") {
		t.Fatalf("busy_days after a hold comes back: %v %q", err, busy)
	}
	if _, err := d.ExecContext(ctx, `UPDATE appointments SET status = 'lost' WHERE id = 'held'`); err == nil {
		t.Fatal("the status check did not come through")
	}
	if _, err := d.ExecContext(ctx, `DELETE FROM users WHERE id = 'u1'`); err != nil {
		t.Fatal(err)
	}
	var left int
	_ = d.QueryRowContext(ctx, `SELECT COUNT(*) FROM deposits`).Scan(&left)
	if left != 0 {
		t.Fatalf("%d deposits left after their owner was deleted", left)
	}
}

package db

import (
	"context"
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
	if err := d.Migrate(ctx, nil); err != nil {
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

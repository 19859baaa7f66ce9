package booking_test

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

// The caches' contract, held by the schema itself rather than by the docs:
// forgetting a rule here serves stale free times without any test of a
// feature noticing.

// Tables that hold an owner's data but on purpose bump no data version:
// nothing a cached answer (memo, schedule.Cache) is computed from. A new
// table with a user_id column either gets its version trigger or a line here
// saying why not.
var unversioned = map[string]string{
	"refresh_tokens":             "sessions: never part of an answer",
	"recovery_tokens":            "password recovery: never part of an answer",
	"rate_limits":                "counters: never part of an answer",
	"jobs":                       "the outbox: never part of an answer",
	"notifications":              "read live, never through the answer cache",
	"checkouts":                  "billing's own state; the subscription (versioned) is what answers read",
	"billing_events":             "webhook idempotency: never part of an answer",
	"calendar_feeds":             "feed links: read live by their token",
	"appointment_links":          "clients' private links: read live by their token",
	"answer_tokens":              "one-tap answer links: read live by their token",
	"busy_days":                  "derived from appointments, whose triggers bump the version",
	"data_versions":              "the version itself",
	"database_marks":             "the database's own marks (demo, served): no owner's",
	"whatsapp_accounts":          "the WhatsApp connection: read live by the profile and the sender, never cached",
	"whatsapp_templates":         "template review status: read live",
	"whatsapp_messages":          "the WhatsApp outbox and delivery statuses: read live",
	"whatsapp_inbound":           "webhook idempotency: never part of an answer",
	"waitlist_entries":           "the waitlist: read live (the owner's day list, the client's links), never through the answer cache",
	"waitlist_offers":            "the waitlist's offers: read live by their token and in the owner's day list",
	"waitlist_notices":           "which waitlist messages went today (one per contact, one per date): never part of an answer",
	"deposit_events":             "a deposit's history: read live by the appointment's details; each change also updates the deposit (versioned)",
	"mercadopago_payments":       "Pix charges and their status at Mercado Pago: read live",
	"mercadopago_notifications":  "webhook idempotency: never part of an answer",
	"mercadopago_webhook_health": "when the webhook last heard a valid or a refused notice: read live by the profile",
}

// ownerTables are the tables with a column naming the owner (or, for the
// join of services and professionals, the service), from the schema.
func ownerTables(t *testing.T, d *db.DB) []string {
	t.Helper()
	ctx := context.Background()
	var tables []string
	q := `SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'user_id' ORDER BY m.name`
	if d.Dialect == db.Postgres {
		q = `SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'user_id' ORDER BY table_name`
	}
	err := db.Each(ctx, d, q, nil, func(r *sql.Rows) error {
		var name string
		tables = append(tables, name)
		return r.Scan(&tables[len(tables)-1])
	})
	if err != nil {
		t.Fatal(err)
	}
	return append(tables, "profiles", "service_professionals")
}

// versioned reports whether inserts, updates and deletes of a table all
// bump the owner's data version.
func versioned(t *testing.T, d *db.DB, table string) bool {
	t.Helper()
	ctx := context.Background()
	if d.Dialect == db.Postgres {
		// tgtype bits: 4 insert, 8 delete, 16 update; the function bumps.
		var n int
		err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_trigger g JOIN pg_proc p ON p.oid = g.tgfoid
			WHERE g.tgrelid = (current_schema() || '.' || ?)::regclass AND NOT g.tgisinternal AND p.proname = 'bump_data_version'
			AND g.tgtype & 28 = 28`, table).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	events := map[string]bool{}
	err := db.Each(ctx, d, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`, []any{table}, func(r *sql.Rows) error {
		var text string
		if err := r.Scan(&text); err != nil {
			return err
		}
		for _, ev := range []string{"INSERT", "UPDATE", "DELETE"} {
			if text = strings.Join(strings.Fields(strings.ToUpper(text)), " "); strings.Contains(text, "AFTER "+ev+" ON "+strings.ToUpper(table)) && strings.Contains(text, "DATA_VERSIONS") {
				events[ev] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return len(events) == 3
}

func TestSchema_EveryTableOfOwnerDataBumpsTheDataVersion(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		tables := ownerTables(t, d)
		for _, must := range []string{"appointments", "services", "professionals", "availability", "blocks", "days_off", "profiles"} {
			if !slices.Contains(tables, must) {
				t.Fatalf("the schema query missed %s: %v", must, tables)
			}
		}
		for _, table := range tables {
			if _, ok := unversioned[table]; ok {
				continue
			}
			if !versioned(t, d, table) {
				t.Errorf("%s holds owner data but inserts, updates and deletes do not all bump data_versions: cached free times and screens would go stale (add its triggers, or list it in unversioned with the reason)", table)
			}
		}
	})
}

// busy_days (kept by triggers, what the public pages read) counts as
// holding time exactly the statuses that booking.Holds does (what a hold
// decides with): inserted with each status, and moved into each status.
func TestSchema_BusyDaysCountTheStatusesBookingHolds(t *testing.T) {
	statuses := []string{"confirmed", "awaiting_deposit", "cancelled", "completed", "no_show"}
	for _, s := range booking.HoldingStatuses {
		if !slices.Contains(statuses, s) {
			t.Fatalf("a holding status %q this test does not know", s)
		}
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		owner, pro := uuid.NewString(), uuid.NewString()
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, 'x', ?, ?)`, []any{owner, owner + "@example.com", now, now}},
			{`INSERT INTO professionals (id, user_id, name, specialization, created_at, updated_at) VALUES (?, ?, 'Ana', '', ?, ?)`, []any{pro, owner, now, now}},
		} {
			if _, err := d.ExecContext(ctx, q.sql, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		busy := func(date string) bool {
			var n int
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM busy_days WHERE professional_id = ? AND busy_date = ?`, pro, date).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n > 0
		}
		for i, status := range statuses {
			date := time.Date(2026, 12, 1+i, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
			later := time.Date(2026, 12, 11+i, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
			for _, c := range []struct{ date, first string }{{date, status}, {later, "cancelled"}} {
				_, err := d.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, professional_name, service_name, duration, price_cents,
					client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, created_at, updated_at)
					VALUES (?, ?, ?, 'Ana', 'Sessão', 60, 0, 'C', '', '', '', ?, '10:00', ?, ?, ?, 'c', 'c', ?, ?)`,
					uuid.NewString(), owner, pro, c.date, now, c.first, uuid.NewString(), now, now)
				if err != nil {
					t.Fatal(err)
				}
			}
			if got, want := busy(date), booking.Holds(status); got != want {
				t.Errorf("inserted %s: busy_days holds it %v, booking.Holds %v", status, got, want)
			}
			if _, err := d.ExecContext(ctx, `UPDATE appointments SET status = ? WHERE professional_id = ? AND appointment_date = ?`, status, pro, later); err != nil {
				t.Fatal(err)
			}
			if got, want := busy(later), booking.Holds(status); got != want {
				t.Errorf("moved to %s: busy_days holds it %v, booking.Holds %v", status, got, want)
			}
		}
	})
}

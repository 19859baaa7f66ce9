package versions_test

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/platform/versions"
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
	"calendar_sources":           "a professional's calendar address and its reads' health: read live by the card and the reader; the busy time it imports (busy_imported) is versioned",
	"busy_flags":                 "which appointments the owner was told an imported busy time covers: the grid's mark is computed from busy_imported (versioned)",
	"calendar_writes":            "the write-back's outbox (appointments to write to a professional's calendar): never part of an answer",
	"calendar_written":           "where each appointment's event was written: read by the write-back only",
	"google_oauth_states":        "started Google connections: read live by their state, never part of an answer",
	"data_versions":              "the version itself",
	"database_marks":             "the database's own marks (demo, served): no owner's",
	"whatsapp_accounts":          "the WhatsApp connection: read live by the profile and the sender, never cached",
	"whatsapp_templates":         "template review status: read live",
	"whatsapp_messages":          "the WhatsApp outbox and delivery statuses: read live",
	"whatsapp_inbound":           "webhook idempotency: never part of an answer",
	"whatsapp_operator_owners":   "the operator's number switched on: read live by the sender and the profile",
	"whatsapp_allowance_notices": "which months the owner was told the allowance ran out: never part of an answer",
	"waitlist_entries":           "the waitlist: read live (the owner's day list, the client's links), never through the answer cache",
	"waitlist_offers":            "the waitlist's offers: read live by their token and in the owner's day list",
	"waitlist_notices":           "which waitlist messages went today (one per contact, one per date): never part of an answer",
	"deposit_events":             "a deposit's history: read live by the appointment's details; each change also updates the deposit (versioned)",
	"mercadopago_payments":       "Pix charges and their status at Mercado Pago: read live",
	"mercadopago_notifications":  "webhook idempotency: never part of an answer",
	"push_subscriptions":         "clients' browsers subscribed to web push: read live by the sender and the LGPD copy",
	"push_deliveries":            "the web push outbox's idempotency: never part of an answer",
	"mercadopago_webhook_health": "when the webhook last heard a valid or a refused notice: read live by the profile",
	"mercadopago_oauth_states":   "a started \"Conectar Mercado Pago\": read once by its state, never part of an answer",
	"members":                    "professionals' own sign-ins: read live by sign-in and the team screen, never part of an answer",
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
		// tgtype bits: 4 insert, 8 delete, 16 update, between the table's
		// triggers whose function bumps: a row's (bump_data_version) or a
		// statement's (bump_data_versions, busy_imported: one trigger an
		// event, as transition tables require).
		var events int
		err := d.QueryRowContext(ctx, `SELECT COALESCE(bit_or(g.tgtype::int & 28), 0) FROM pg_trigger g JOIN pg_proc p ON p.oid = g.tgfoid
			WHERE g.tgrelid = (current_schema() || '.' || ?)::regclass AND NOT g.tgisinternal AND p.proname IN ('bump_data_version', 'bump_data_versions')`, table).Scan(&events)
		if err != nil {
			t.Fatal(err)
		}
		return events == 28
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

// Every table of owner data bumps the version on insert, update and
// delete, or says in unversioned why not; and the tables that do are
// exactly versions.Bumped, so the documented rule cannot go stale.
func TestSchema_EveryTableOfOwnerDataBumpsTheDataVersion(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		tables := ownerTables(t, d)
		var bumped []string
		for _, b := range versions.Bumped {
			if !slices.Contains(tables, b.Name) {
				t.Fatalf("the schema query missed %s: %v", b.Name, tables)
			}
			if _, ok := unversioned[b.Name]; ok {
				t.Errorf("%s is both in versions.Bumped and in unversioned", b.Name)
			}
			bumped = append(bumped, b.Name)
		}
		for _, table := range tables {
			if _, ok := unversioned[table]; ok {
				continue
			}
			if !versioned(t, d, table) {
				t.Errorf("%s holds owner data but inserts, updates and deletes do not all bump data_versions: cached free times and screens would go stale (add its triggers, or list it in unversioned with the reason)", table)
			} else if !slices.Contains(bumped, table) {
				t.Errorf("%s bumps the version but is missing from versions.Bumped", table)
			}
		}
		for name := range unversioned {
			if slices.Contains(tables, name) && versioned(t, d, name) {
				t.Errorf("%s is listed in unversioned but its writes bump the version: move it to versions.Bumped", name)
			}
		}
	})
}

// The three reads of a version answer the same: 0 before the owner's
// first write, then what the triggers made of each insert, update and
// delete; OfUsername finds the owner by the stored username and nobody
// by another.
func TestOf_ReadAndOfUsernameFollowTheTriggers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('u1', 'u1@example.com', 'x', ?, ?)`, now, now); err != nil {
			t.Fatal(err)
		}
		read := func() int64 {
			t.Helper()
			v, err := versions.Of(ctx, d, "u1")
			if err != nil {
				t.Fatal(err)
			}
			var batched, other int64 = -1, -1
			if err := db.ReadAll(ctx, d, versions.Read("u1", &batched), versions.Read("nobody", &other)); err != nil {
				t.Fatal(err)
			}
			if batched != v || other != 0 {
				t.Fatalf("Of %d, Read %d (and %d for nobody)", v, batched, other)
			}
			return v
		}
		if v := read(); v != 0 {
			t.Fatalf("before any write: version %d, want 0", v)
		}
		last := int64(0)
		for _, w := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO professionals (id, user_id, name, specialization, created_at, updated_at) VALUES ('p1', 'u1', 'Ana', '', ?, ?)`, []any{now, now}},
			{`UPDATE professionals SET name = 'Bia', updated_at = ? WHERE id = 'p1'`, []any{now.Add(time.Minute)}},
			{`DELETE FROM professionals WHERE id = 'p1'`, nil},
		} {
			if _, err := d.ExecContext(ctx, w.sql, w.args...); err != nil {
				t.Fatal(err)
			}
			if v := read(); v <= last {
				t.Fatalf("%s: version %d, was %d", strings.Fields(w.sql)[0], v, last)
			} else {
				last = v
			}
		}
		if err := d.InTx(ctx, func(tx *db.Tx) error {
			v, err := versions.Of(ctx, tx, "u1")
			if err == nil && v != last {
				t.Errorf("inside a transaction: %d, want %d", v, last)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `INSERT INTO profiles (id, public_username, created_at, updated_at) VALUES ('u1', 'clinica', ?, ?)`, now, now); err != nil {
			t.Fatal(err)
		}
		o, err := versions.OfUsername(ctx, d, "clinica")
		if err != nil || o.ID != "u1" || o.Version != read() || o.Version <= last {
			t.Fatalf("OfUsername: %+v, %v (version %d before the profile)", o, err, last)
		}
		if o, err := versions.OfUsername(ctx, d, "outra"); err != nil || o != (versions.Owner{}) {
			t.Fatalf("an unknown username: %+v, %v", o, err)
		}
	})
}

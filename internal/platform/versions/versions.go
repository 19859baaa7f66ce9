// Package versions is the one home of an owner's data version: the number
// every cached answer (the answer cache, internal/platform/memo; the
// schedule setups, schedule.Cache; the agenda grid) is kept under, and
// which says "nothing this answer was computed from has changed since".
//
// The rules, held by the schema (contract test: versions_test.go):
//
//   - One row per owner in data_versions (user_id, version); no row reads
//     as version 0. No foreign key: rows are bumped while an account's
//     rows are being deleted, and the deletion removes the row last.
//   - Triggers bump it in the same transaction as every insert, update and
//     delete of the tables in Bumped (PostgreSQL: bump_data_version(), from
//     migration 00010 on; SQLite: three triggers a table, made again by
//     every rebuild of appointments): whatever another instance wrote, a
//     reader sees the new version with the new rows.
//   - A table of owner data that bumps nothing says why in the contract
//     test's unversioned list (sessions, outboxes, tokens read live,
//     tables derived from appointments…). Data the triggers do not cover
//     must not shape a cached answer.
//   - On PostgreSQL the owner's row is also the owner's write lock
//     (db.Tx.LockOwner, migration 00042): taking it never changes the
//     version, except that it creates the row (at 1) when the owner has
//     none yet.
//   - A reader reads the version before what it computes, never after, so
//     an answer is never newer in name than in fact.
//
// Why a package of its own rather than part of db: db is the engines'
// plumbing and knows no table of the product; this is a contract between
// the schema's triggers and every cache, read by memo, booking and the
// grid, and its test needs to know which of the product's tables are
// owner data.
package versions

import (
	"context"
	"database/sql"
	"errors"

	"github.com/agendei/agendei/internal/platform/db"
)

// Bumped are the tables whose every insert, update and delete bumps the
// version of the row's owner, with the column that names the owner
// (service_professionals names a service, whose owner is bumped).
var Bumped = []Table{
	{"appointments", "user_id"},
	{"availability", "user_id"},
	{"blocks", "user_id"},
	{"busy_imported", "user_id"},
	{"custom_holidays", "user_id"},
	{"days_off", "user_id"},
	{"deposits", "user_id"},
	{"mercadopago_accounts", "user_id"},
	{"open_holidays", "user_id"},
	{"professionals", "user_id"},
	{"profiles", "id"},
	{"service_professionals", "service_id"},
	{"services", "user_id"},
	{"subscriptions", "user_id"},
}

// Table is one table whose writes bump the version, and its column naming
// the owner.
type Table struct{ Name, Owner string }

// query always answers one row: 0 when the owner has none yet.
const query = `SELECT COALESCE(MAX(version), 0) FROM data_versions WHERE user_id = ?`

// Of is the owner's current data version (0 before any write).
func Of(ctx context.Context, q db.Querier, ownerID string) (int64, error) {
	var v int64
	err := q.QueryRowContext(ctx, query, ownerID).Scan(&v)
	return v, err
}

// Read is Of as one read of a db.ReadAll batch: it sets *into to the
// owner's version. Put it first in the batch, so that what the batch
// reads after it is never older than the version.
func Read(ownerID string, into *int64) db.Read {
	return db.Read{Query: query, Args: []any{ownerID}, Row: func(scan func(...any) error) error { return scan(into) }}
}

// Owner is an owner and their data version as read at one moment.
type Owner struct {
	ID      string // "" when there is no such owner
	Version int64
}

// OfUsername is the owner with that public username — written the way
// usernames are stored (profiles.NormalizeUsername) — and their version;
// Owner.ID is "" when no profile has that username.
func OfUsername(ctx context.Context, q db.Querier, username string) (Owner, error) {
	var o Owner
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT p.id, d.version FROM profiles p LEFT JOIN data_versions d ON d.user_id = p.id
		WHERE p.public_username = ?`, username).Scan(&o.ID, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return Owner{}, nil
	}
	if err != nil {
		return Owner{}, err
	}
	o.Version = v.Int64
	return o, nil
}

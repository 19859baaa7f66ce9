package connect

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// Rows is the sealed account of a provider whose connections belong to
// something inside the owner's account — a professional's calendar — so
// that an owner has several, one row each, keyed by the row's id. The
// owner stays the tenancy (every read is by owner and id) and the seals'
// context, with the row's scope (what it belongs to, the professional):
// "<owner>:<name>.<scope>.<field>".
type Rows struct {
	Box *secretbox.Box
	// Name is the provider's word in seals' contexts ("calendars").
	Name string
	// Table holds one row per connection: id (the key), user_id (the
	// owner), the Scope column and the Fields' columns.
	Table string
	// Scope is the column naming what a row belongs to within the owner
	// ("professional_id"); its value is part of the seals' context.
	Scope string
}

// Row is one stored connection: its id, owner, scope and the fields read
// (secrets opened by Job).
type Row struct {
	ID, Owner, Scope string
	Values           Values
}

func (r *Rows) sealCtx(owner, scope, field string) string {
	return owner + ":" + r.Name + "." + scope + "." + field
}

// Seal seals a secret of the owner's connection of scope, bound to owner,
// scope and field: it opens only as that field of that connection.
func (r *Rows) Seal(owner, scope, field, value string) (string, error) {
	return r.Box.Seal(value, r.sealCtx(owner, scope, field))
}

// Open opens what Seal sealed (secretbox.ErrOpen when it does not open
// under those owner, scope and field, or under no configured key).
func (r *Rows) Open(owner, scope, field, sealed string) (string, error) {
	return r.Box.Open(sealed, r.sealCtx(owner, scope, field))
}

// Job reads a connection by its id alone, for a background job that was
// handed only the id (the owner comes from the row), with fields (a Secret
// one opened: secretbox.ErrOpen, with the row, when it does not) and the
// provider's own columns into more; nil when it is gone. An id from a
// request is never handed here: the owner's routes find their row by owner.
func (r *Rows) Job(ctx context.Context, q db.Querier, id string, fields []Field, more ...Col) (*Row, error) {
	row := &Row{Values: Values{}}
	raw := make([]string, len(fields))
	cols := []string{"id", "user_id", r.Scope}
	dest := []any{&row.ID, &row.Owner, &row.Scope}
	for i, f := range fields {
		cols, dest = append(cols, f.column()), append(dest, &raw[i])
	}
	for _, c := range more {
		cols, dest = append(cols, c.Name), append(dest, c.Into)
	}
	err := q.QueryRowContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+r.Table+` WHERE id = ?`, id).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for i, f := range fields {
		if !f.Secret {
			row.Values[f.Name] = raw[i]
			continue
		}
		if row.Values[f.Name], err = r.Open(row.Owner, row.Scope, f.Name, raw[i]); err != nil {
			return row, err
		}
	}
	return row, nil
}

// Reads is the health of connections a job reads on a schedule (a
// calendar), one per row of Table (by id): the last read that worked
// (last_read_at), the last that did not and why, in pt-BR for the card
// (last_error, last_error_at), and since when it has failed
// (failing_since: how long the last good data is kept). Where Health is
// what a webhook heard, Reads is what our own calls found.
type Reads struct {
	DB    *db.DB
	Clock clock.Clock
	Table string
}

// Worked records a read that worked at at, with the provider's own columns
// (sorted, one statement text per set); note, when not "", is kept as the
// last error (it worked, but not wholly: "2 of the chosen calendars are
// gone"). It is no longer failing.
func (h *Reads) Worked(ctx context.Context, q db.Querier, id string, at time.Time, note string, more map[string]any) error {
	set := []string{"last_read_at = ?", "last_error = ?", "last_error_at = ?", "failing_since = NULL"}
	noteAt := sql.NullTime{Time: at, Valid: note != ""}
	args := []any{at, note, noteAt}
	for _, c := range slices.Sorted(maps.Keys(more)) {
		set, args = append(set, c+" = ?"), append(args, more[c])
	}
	_, err := q.ExecContext(ctx, `UPDATE `+h.Table+` SET `+strings.Join(set, ", ")+` WHERE id = ?`, append(args, id)...)
	return err
}

// Failed records a read that failed now for why (pt-BR, no secret, no
// personal data: the card shows it and it is logged), and returns since
// when the connection has been failing (now for a first failure).
func (h *Reads) Failed(ctx context.Context, q db.Querier, id, why string) (time.Time, error) {
	now := h.Clock.Now()
	if _, err := q.ExecContext(ctx, `UPDATE `+h.Table+` SET last_error = ?, last_error_at = ?, failing_since = COALESCE(failing_since, ?) WHERE id = ?`,
		why, now, now, id); err != nil {
		return now, err
	}
	var since sql.NullTime
	if err := q.QueryRowContext(ctx, `SELECT failing_since FROM `+h.Table+` WHERE id = ?`, id).Scan(&since); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return now, err
	}
	if since.Valid {
		return since.Time, nil
	}
	return now, nil
}

// Restart forgets a connection's health (a new address or account starts
// afresh: nothing read yet, no error).
func (h *Reads) Restart(ctx context.Context, q db.Querier, id string) error {
	_, err := q.ExecContext(ctx, `UPDATE `+h.Table+` SET last_read_at = NULL, last_error = '', last_error_at = NULL, failing_since = NULL WHERE id = ?`, id)
	return err
}

// TimeOf is a nullable time in UTC (nil: null).
func TimeOf(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}

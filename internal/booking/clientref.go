package booking

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
)

// querier is what ClientKeyOf reads through (the pool or a transaction).
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ClientKeyOf reads a client's page reference (issue 39): the id of one of
// the owner's appointments stands for that appointment's client, so the
// page's address is opaque and never the phone or e-mail (an address is
// logged and kept in the browser's history). A reference that is not an
// appointment id is a client key as the old links carried it (phone digits,
// else the e-mail), returned as it is; an appointment id of someone else's,
// or none, is returned as it is too and finds no client.
func ClientKeyOf(ctx context.Context, q querier, userID, ref string) (string, error) {
	if _, err := uuid.Parse(ref); err != nil {
		return ref, nil
	}
	var key string
	err := q.QueryRowContext(ctx, `SELECT client_key FROM appointments WHERE id = ? AND user_id = ?`, ref, userID).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return ref, nil
	}
	return key, err
}

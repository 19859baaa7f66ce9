package auth

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/platform/db"
)

type user struct {
	ID               string
	Email            string
	PasswordHash     string
	KeywordHash      sql.NullString
	ResetFailures    int
	ResetLockouts    int
	ResetLockedUntil sql.NullTime
}

const userColumns = `id, email, password_hash, keyword_hash, reset_failures, reset_lockouts, reset_locked_until`

func scanUser(row *sql.Row) (*user, error) {
	var u user
	err := row.Scan(&u.ID, &u.Email, &u.PasswordHash, &u.KeywordHash, &u.ResetFailures, &u.ResetLockouts, &u.ResetLockedUntil)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &u, err
}

func userByEmail(ctx context.Context, q db.Querier, email string) (*user, error) {
	return scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE email = ?`, email))
}

func userByID(ctx context.Context, q db.Querier, id string) (*user, error) {
	return scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
}

// insertRefresh stores a new refresh token of a family (a new family when
// family is empty) and returns the token to hand to the browser.
func insertRefresh(ctx context.Context, q db.Querier, userID, family string, now time.Time) (string, error) {
	if family == "" {
		family = uuid.NewString()
	}
	token, hash := opaqueToken()
	_, err := q.ExecContext(ctx, `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		uuid.NewString(), userID, family, hash, now.Add(RefreshTTL), now)
	return token, err
}

func revokeAllRefresh(ctx context.Context, q db.Querier, userID string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL`, now, userID)
	return err
}

func revokeFamily(ctx context.Context, q db.Querier, family string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL`, now, family)
	return err
}

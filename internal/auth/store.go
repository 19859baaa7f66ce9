package auth

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

type user struct {
	ID               string
	Email            string
	PasswordHash     string
	KeywordHash      sql.NullString
	ResetFailures    int
	ResetLockouts    int
	ResetLockedUntil sql.NullTime
	SessionGen       int64          // access tokens of an older generation are refused
	OwnerID          sql.NullString // a professional's account: the practice's owner (members.go)
}

const userColumns = `id, email, password_hash, keyword_hash, reset_failures, reset_lockouts, reset_locked_until, session_generation, owner_id`

func scanUser(row *sql.Row) (*user, error) {
	var u user
	err := row.Scan(&u.ID, &u.Email, &u.PasswordHash, &u.KeywordHash, &u.ResetFailures, &u.ResetLockouts, &u.ResetLockedUntil, &u.SessionGen, &u.OwnerID)
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
// family is empty) and returns the token to hand to the browser and its family.
func insertRefresh(ctx context.Context, q db.Querier, userID, family string, now time.Time) (string, string, error) {
	if family == "" {
		family = uuid.NewString()
	}
	token, hash := OpaqueToken()
	_, err := q.ExecContext(ctx, `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		uuid.NewString(), userID, family, hash, now.Add(RefreshTTL), now)
	return token, family, err
}

// endAllSessions revokes every refresh token of the user and moves its session
// generation on, so its access tokens stop working on every instance too.
func endAllSessions(ctx context.Context, q db.Querier, userID string, now time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE users SET session_generation = session_generation + 1 WHERE id = ?`, userID); err != nil {
		return err
	}
	return revokeAllRefresh(ctx, q, userID, now)
}

// familyRevoked reports whether any refresh token of the family was revoked:
// the sign-in has ended, whatever rotation of it is presented.
func familyRevoked(ctx context.Context, q db.Querier, family string) (bool, error) {
	var revoked bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NOT NULL)`, family).Scan(&revoked)
	return revoked, err
}

// sessionState reads what decides whether an access token still stands: the
// account's session generation (found false: the account is gone), and
// whether its sign-in is live (the family exists for this user and none of
// its tokens was revoked).
func sessionState(ctx context.Context, q db.Querier, userID, family string) (found bool, gen int64, live bool, err error) {
	var exists, revoked bool
	err = q.QueryRowContext(ctx, `SELECT u.session_generation,
			EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = ? AND r.user_id = u.id),
			EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = ? AND r.revoked_at IS NOT NULL)
		FROM users u WHERE u.id = ?`, family, family, userID).Scan(&gen, &exists, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return false, 0, false, nil
	}
	if err != nil {
		return false, 0, false, err
	}
	return true, gen, exists && !revoked, nil
}

// recentFailures is how many failed sign-ins rule has counted for key in its
// current window, without counting one more. It reads the row that
// ratelimit.Limiter.Allow keeps (key "<rule name>:<key>").
func recentFailures(ctx context.Context, q db.Querier, rule ratelimit.Rule, key string, now time.Time) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count FROM rate_limits WHERE key = ? AND window_start > ?`,
		rule.Name+":"+key, now.Add(-rule.Window)).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}

func revokeAllRefresh(ctx context.Context, q db.Querier, userID string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL`, now, userID)
	return err
}

func revokeFamily(ctx context.Context, q db.Querier, family string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL`, now, family)
	return err
}

// Signing in and its sessions: Login with its slowdown, rotating Refresh with reuse detection, Logout.

package auth

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// SetSleep replaces how the sign-in slowdown waits (tests record the waits
// instead of sleeping). Call it before serving requests.
func (s *Service) SetSleep(fn func(ctx context.Context, d time.Duration) error) { s.sleep = fn }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// loginDelay is the wait before checking a password for an e-mail that has
// failed failures times in the window: none before loginSlowAfter failures,
// then loginBaseDelay doubling with each further failure, up to loginMaxDelay.
func loginDelay(failures int) time.Duration {
	n := failures - loginSlowAfter
	switch {
	case n < 0:
		return 0
	case n >= 8:
		return loginMaxDelay
	}
	return min(loginBaseDelay<<n, loginMaxDelay)
}

// Session is what a successful sign-in returns: the access token for the
// JSON body and the refresh token for the cookie.
type Session struct {
	UserID, Email string
	Role          string // owner, professional
	AccessToken   string
	ExpiresAt     time.Time
	RefreshToken  string
}

func (s *Service) newSession(ctx context.Context, q db.Querier, u *user, family string) (*Session, error) {
	tok := accessToken{UserID: u.ID, Gen: u.SessionGen}
	if u.OwnerID.Valid {
		// A professional's account signs in only while the owner keeps its
		// access (members.go).
		pro, err := activeMember(ctx, q, u.ID)
		if err != nil {
			return nil, err
		}
		if pro == "" {
			return nil, errMemberEnded
		}
		tok.OwnerID, tok.ProfessionalID = u.OwnerID.String, pro
	}
	refresh, family, err := insertRefresh(ctx, q, u.ID, family, s.clock.Now())
	if err != nil {
		return nil, err
	}
	tok.Family = family
	access, exp, err := s.signer.issueFor(tok)
	if err != nil {
		return nil, err
	}
	role := "owner"
	if tok.ProfessionalID != "" {
		role = "professional"
	}
	return &Session{UserID: u.ID, Email: u.Email, Role: role, AccessToken: access, ExpiresAt: exp, RefreshToken: refresh}, nil
}

// Login signs in with e-mail and password.
func (s *Service) Login(ctx context.Context, rawEmail, rawPassword, ip string) (*Session, error) {
	password := strings.TrimSpace(rawPassword)
	if strings.TrimSpace(rawEmail) == "" || password == "" {
		return nil, errLoginRequired
	}
	email, err := NormalizeEmail(rawEmail)
	if err != nil {
		return nil, errBadCredentials
	}
	if err := s.limiter.Check(ctx, ruleLoginIP, ip); err != nil {
		return nil, err
	}
	if err := s.limiter.Check(ctx, ruleLoginEmailIP, email+" "+ip); err != nil {
		return nil, err
	}
	// Slow down, do not lock: the wait comes before the answer for everyone
	// trying this e-mail (known or not, so it reveals nothing), so a guesser
	// cannot cut it short and read the result from the timing.
	failures, err := recentFailures(ctx, s.db, ruleLoginFailed, email, s.clock.Now())
	if err != nil {
		return nil, err
	}
	if d := loginDelay(failures); d > 0 {
		if err := s.sleep(ctx, d); err != nil {
			return nil, httpx.ErrUnavailable // the caller left; nobody reads this
		}
	}
	u, err := userByEmail(ctx, s.db, email)
	if err != nil {
		return nil, err
	}
	hash := dummyHash
	if u != nil {
		hash = u.PasswordHash
	}
	ok, err := VerifySecret(hash, password)
	if err != nil {
		return nil, err
	}
	if u == nil || !ok {
		if _, _, err := s.limiter.Allow(ctx, ruleLoginFailed, email); err != nil {
			return nil, err
		}
		return nil, errBadCredentials
	}
	if err := s.limiter.Reset(ctx, ruleLoginEmailIP, email+" "+ip); err != nil {
		return nil, err
	}
	return s.newSession(ctx, s.db, u, "")
}

// Refresh trades a refresh token for a new session in the same family. A token
// presented again more than refreshLeeway after its first use means it was
// stolen or replayed: the whole family is revoked, signing out both the thief
// and the owner. Inside the leeway it trades once more (the first answer was
// lost on its way).
func (s *Service) Refresh(ctx context.Context, token string) (*Session, error) {
	if token == "" {
		return nil, errSessionInvalid
	}
	var sess *Session
	reused := false
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		var id, userID, family string
		var expires time.Time
		var used, revoked sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT id, user_id, family_id, expires_at, used_at, revoked_at FROM refresh_tokens WHERE token_hash = ?`,
			HashToken(token)).Scan(&id, &userID, &family, &expires, &used, &revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return errSessionInvalid
		}
		if err != nil {
			return err
		}
		// Presented again after its leeway: stolen or replayed. Inside it, the
		// answer to its first use was lost on the way (see refreshLeeway).
		if used.Valid && !revoked.Valid && now.Sub(used.Time) >= refreshLeeway {
			reused = true
			return revokeFamily(ctx, tx, family, now)
		}
		if revoked.Valid || !now.Before(expires) {
			return errSessionInvalid
		}
		// A token minted by a rotation that raced a revoke of its family is
		// not revoked itself, but its sign-in has ended.
		if ended, err := familyRevoked(ctx, tx, family); err != nil {
			return err
		} else if ended {
			return errSessionInvalid
		}
		// The first use starts the leeway; a replay inside it does not extend it.
		if !used.Valid {
			if _, err := tx.ExecContext(ctx, `UPDATE refresh_tokens SET used_at = ? WHERE id = ?`, now, id); err != nil {
				return err
			}
		}
		u, err := userByID(ctx, tx, userID)
		if err != nil {
			return err
		}
		if u == nil {
			return errSessionInvalid
		}
		sess, err = s.newSession(ctx, tx, u, family)
		return err
	})
	if err != nil {
		return nil, err
	}
	if reused {
		s.log.Warn("refresh token reuse detected; session family revoked")
		return nil, errSessionInvalid
	}
	return sess, nil
}

// Logout ends the sign-in of this refresh token (local), or every sign-in of
// its user (global), access tokens included. Without a refresh token, the
// access token (signature checked) says which sign-in. Unknown tokens are
// ignored: signing out always succeeds.
func (s *Service) Logout(ctx context.Context, refreshToken string, access accessToken, global bool) error {
	now := s.clock.Now()
	userID, family := access.UserID, access.Family
	if refreshToken != "" {
		err := s.db.QueryRowContext(ctx, `SELECT user_id, family_id FROM refresh_tokens WHERE token_hash = ?`, HashToken(refreshToken)).Scan(&userID, &family)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	switch {
	case global && userID != "":
		if err := s.db.InTx(ctx, func(tx *db.Tx) error { return endAllSessions(ctx, tx, userID, now) }); err != nil {
			return err
		}
		s.sessions.forget(userID, "")
	case family != "":
		if err := revokeFamily(ctx, s.db, family, now); err != nil {
			return err
		}
		if userID != "" {
			s.sessions.forget(userID, family)
		}
	}
	return nil
}

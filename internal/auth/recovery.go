// Account recovery by an e-mailed one-time link: a new password and keyword.

package auth

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
)

// RequestRecovery e-mails a one-time link to the owner of email, if there is
// one. It answers the same either way.
func (s *Service) RequestRecovery(ctx context.Context, rawEmail, ip string) error {
	email, err := NormalizeEmail(rawEmail)
	if err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleRecoveryIP, ip); err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleRecoveryMail, email); err != nil {
		return err
	}
	u, err := userByEmail(ctx, s.db, email)
	if err != nil || u == nil {
		return err
	}
	token, hash := OpaqueToken()
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO recovery_tokens (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)`,
			hash, u.ID, now.Add(RecoveryTTL), now); err != nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, recoveryLinkEmail(s.baseURL+"/forgot-password?token="+token, ip))
	})
}

// RecoveryInput is the payload that completes a recovery link.
type RecoveryInput struct {
	Token           string `json:"token"`
	Password        string `json:"password"`
	RecoveryKeyword string `json:"recoveryKeyword"`
}

// CompleteRecovery uses a recovery link's token once to set a new password and
// keyword, ending every session of the account.
func (s *Service) CompleteRecovery(ctx context.Context, in RecoveryInput, ip string) error {
	password := strings.TrimSpace(in.Password)
	keyword := strings.TrimSpace(in.RecoveryKeyword)
	if strings.TrimSpace(in.Token) == "" || password == "" || keyword == "" {
		return errResetRequired
	}
	if err := checkSecrets(password, keyword); err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleRecoveryIP, ip); err != nil {
		return err
	}
	pwHash, kwHash, err := hashSecrets(password, keyword)
	if err != nil {
		return err
	}
	var userID string
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		var expires time.Time
		var used sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT user_id, expires_at, used_at FROM recovery_tokens WHERE token_hash = ?`,
			HashToken(strings.TrimSpace(in.Token))).Scan(&userID, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (used.Valid || !now.Before(expires))) {
			return errInvalidToken
		}
		if err != nil {
			return err
		}
		// Using one link spends every outstanding link of the account.
		if _, err := tx.ExecContext(ctx, `UPDATE recovery_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL`, now, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, keyword_hash = ?, reset_failures = 0, reset_lockouts = 0, reset_locked_until = NULL, updated_at = ? WHERE id = ?`,
			pwHash, kwHash, now, userID); err != nil {
			return err
		}
		if err := endAllSessions(ctx, tx, userID, now); err != nil {
			return err
		}
		u, err := userByID(ctx, tx, userID)
		if err != nil || u == nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, resetSucceededEmail(now, ip, s.baseURL))
	})
	if err == nil {
		s.sessions.forget(userID, "")
	}
	return err
}

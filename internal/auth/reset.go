// Password reset by recovery keyword, counted and locked against guessing.

package auth

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

func keywordLocked(wait time.Duration) *httpx.Error {
	e := httpx.NewError(http.StatusTooManyRequests, "keyword_locked", fmt.Sprintf(
		"Muitas tentativas com a palavra-chave incorreta. Por segurança, a redefinição por palavra-chave desta conta está bloqueada por %s. Use as opções alternativas.",
		ratelimit.HumanWait(wait)))
	e.RetryAfter = int(wait.Seconds() + 0.999)
	return e
}

// ResetInput is the password-reset payload.
type ResetInput struct {
	Email           string `json:"email"`
	RecoveryKeyword string `json:"recoveryKeyword"`
	NewPassword     string `json:"newPassword"`
}

// ResetPassword sets a new password when the recovery keyword matches. Every
// evaluated attempt e-mails the owner; 5 misses lock the keyword reset for
// 15 minutes, doubling with each lock (up to a day).
func (s *Service) ResetPassword(ctx context.Context, in ResetInput, ip string) error {
	keyword := strings.TrimSpace(in.RecoveryKeyword)
	password := strings.TrimSpace(in.NewPassword)
	if strings.TrimSpace(in.Email) == "" || keyword == "" || password == "" {
		return errResetRequired
	}
	if utf8.RuneCountInString(password) < minPassword {
		return errResetShort
	}
	if len(password) > maxSecret || len(keyword) > maxSecret {
		return errSecretLong
	}
	email, err := NormalizeEmail(in.Email)
	if err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleResetIP, ip); err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleResetEmail, email); err != nil {
		return err
	}
	u, err := userByEmail(ctx, s.db, email)
	if err != nil {
		return err
	}
	if u == nil {
		return errEmailNotFound
	}
	now := s.clock.Now()
	if u.ResetLockedUntil.Valid && now.Before(u.ResetLockedUntil.Time) {
		return keywordLocked(u.ResetLockedUntil.Time.Sub(now))
	}
	if !u.KeywordHash.Valid {
		return errKeywordNotSet
	}
	ok, err := VerifySecret(u.KeywordHash.String, normalizeKeyword(keyword))
	if err != nil {
		return err
	}
	if !ok {
		return s.keywordMiss(ctx, u, ip)
	}
	pwHash, err := HashSecret(password)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, reset_failures = 0, reset_lockouts = 0, reset_locked_until = NULL, updated_at = ? WHERE id = ?`,
			pwHash, now, u.ID); err != nil {
			return err
		}
		if err := endAllSessions(ctx, tx, u.ID, now); err != nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, resetSucceededEmail(now, ip, s.baseURL))
	})
	if err == nil {
		s.sessions.forget(u.ID, "")
	}
	return err
}

// keywordMiss counts a wrong keyword, locking the reset at the fifth, and
// tells the owner.
func (s *Service) keywordMiss(ctx context.Context, u *user, ip string) error {
	var answer error = errKeywordWrong
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		var failures, lockouts int
		if err := tx.QueryRowContext(ctx, `SELECT reset_failures, reset_lockouts FROM users WHERE id = ?`, u.ID).Scan(&failures, &lockouts); err != nil {
			return err
		}
		failures++
		var lockedUntil sql.NullTime
		if failures >= keywordMaxFailures {
			lock := keywordBaseLock << lockouts
			if lock > keywordMaxLock || lock <= 0 {
				lock = keywordMaxLock
			}
			lockouts++
			failures = 0
			lockedUntil = sql.NullTime{Time: now.Add(lock), Valid: true}
			answer = keywordLocked(lock)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET reset_failures = ?, reset_lockouts = ?, reset_locked_until = ?, updated_at = ? WHERE id = ?`,
			failures, lockouts, lockedUntil, now, u.ID); err != nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, resetFailedEmail(now, ip, lockedUntil, s.baseURL))
	})
	if err != nil {
		return err
	}
	return answer
}

// Account deletion: the owner's rows by cascade, then the delete hooks (files).

package auth

import (
	"context"
	"strings"

	"github.com/agendei/agendei/internal/platform/db"
)

// OnDelete adds work to do after an account is deleted (its files, say).
func (s *Service) OnDelete(fn func(ctx context.Context, userID string) error) {
	s.deleteHooks = append(s.deleteHooks, fn)
}

// DeleteInput confirms an account deletion.
type DeleteInput struct {
	Password     string `json:"password"`
	Confirmation string `json:"confirmation"`
}

// accountGone tells whether the account is known to be gone (a failed
// look-up is not an answer: false).
func (s *Service) accountGone(ctx context.Context, userID string) bool {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE id = ?`, userID).Scan(&n)
	return err == nil && n == 0
}

// DeleteAccount removes the account and, through the schema's cascades, every
// row it owns; then runs the delete hooks (files).
func (s *Service) DeleteAccount(ctx context.Context, userID string, in DeleteInput) error {
	if strings.TrimSpace(in.Confirmation) != "EXCLUIR" {
		return errConfirmation
	}
	password := strings.TrimSpace(in.Password)
	if password == "" {
		return errPasswordNeeded
	}
	if err := s.limiter.Check(ctx, ruleDeleteUser, userID); err != nil {
		return err
	}
	u, err := userByID(ctx, s.db, userID)
	if err != nil {
		return err
	}
	if u == nil {
		return errAccountNotFound
	}
	ok, err := VerifySecret(u.PasswordHash, password)
	if err != nil {
		return err
	}
	if !ok {
		return errPasswordWrong
	}
	// The owner's lock first, as every write of the owner's rows takes it
	// (db.Tx.LockOwner): on PostgreSQL the deletion waits for the owner's
	// writes under way and those after it wait for it, never in a cycle.
	err = s.db.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		// Health records are kept for their legal retention (issue 43): an
		// account that keeps one not yet destroyed is not deleted (the
		// entries' triggers would refuse it anyway).
		var kept bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records r WHERE r.owner_id = ?
			AND NOT EXISTS (SELECT 1 FROM record_destructions d WHERE d.record_id = r.id))`, userID).Scan(&kept); err != nil {
			return err
		}
		if kept {
			return errRecordsKept
		}
		// Destroyed records' rows go first, while their destructions (which
		// the append-only triggers ask for) still stand.
		for _, table := range []string{"record_entries", "record_log", "records"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE owner_id = ?`, userID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, userID); err != nil {
			return err
		}
		// Jobs name their owner without a foreign key (jobs.About); queued
		// or sent, their mail may name the owner's clients.
		if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE user_id = ?`, userID); err != nil {
			return err
		}
		// The cascade bumped the data version (a row without a foreign key):
		// drop it too. Writers waiting for it (db.Tx.LockOwner) find the
		// account gone once this commits, and stop.
		_, err := tx.ExecContext(ctx, `DELETE FROM data_versions WHERE user_id = ?`, userID)
		return err
	})
	if err != nil {
		return err
	}
	s.sessions.forget(userID, "")
	// The request's own context ends once its session is found gone (it just
	// was): the files must go anyway.
	ctx = context.WithoutCancel(ctx)
	for _, hook := range s.deleteHooks {
		if err := hook(ctx, userID); err != nil {
			// The account is gone already; a leftover file is logged, not fatal.
			s.log.Error("account deletion hook", "user_id", userID, "err", err)
		}
	}
	return nil
}

package billing

import (
	"context"
	"time"

	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/profiles"
)

// TrialNotice is how long before the trial's end the owner is told.
const TrialNotice = 3 * 24 * time.Hour

// Sweep sends the time-based notices: the trial ends in 3 days (once per
// owner, not to subscribers), and a locally paid plan has ended. Each notice
// is claimed by a conditional update, so several instances sweeping at once
// send it once.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.Clock.Now()
	owners, err := s.ids(ctx, `SELECT id FROM profiles
		WHERE trial_ends_at IS NOT NULL AND trial_ends_at > ? AND trial_ends_at <= ? AND trial_notice_at IS NULL`,
		now, now.Add(TrialNotice))
	if err != nil {
		return err
	}
	for _, id := range owners {
		err := s.DB.OwnerTx(ctx, id, func(tx *db.Tx) error {
			paid, err := profiles.PaidUntil(ctx, tx, id)
			if err != nil || profiles.Paid(paid, now) {
				return err // a subscriber is not told; asked again while the trial lasts
			}
			res, err := tx.ExecContext(ctx, `UPDATE profiles SET trial_notice_at = ? WHERE id = ? AND trial_notice_at IS NULL`, now, id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil // another instance sent it
			}
			return s.Notes.Create(ctx, tx, id, notifications.System, "Seu teste gratuito está acabando",
				"Faltam 3 dias para o fim do seu teste gratuito. Assine o plano Premium para continuar recebendo agendamentos online.", "")
		})
		if err != nil {
			return err
		}
	}
	// A locally paid period that ran out ends the plan (Stripe says so by webhook).
	owners, err = s.ids(ctx, `SELECT user_id FROM subscriptions WHERE provider = 'local' AND status = 'active' AND current_period_end <= ?`, now)
	if err != nil {
		return err
	}
	for _, id := range owners {
		err := s.DB.OwnerTx(ctx, id, func(tx *db.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE subscriptions SET status = 'canceled', updated_at = ? WHERE user_id = ? AND status = 'active' AND current_period_end <= ?`, now, id, now)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil
			}
			return s.Notes.Create(ctx, tx, id, notifications.System, "Assinatura encerrada",
				"Sua assinatura terminou. O agendamento online fica indisponível até você assinar novamente.", "")
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// ids runs a query of one text column and returns its values.
func (s *Service) ids(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

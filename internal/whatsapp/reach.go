package whatsapp

import (
	"context"
	"database/sql"
	"errors"

	"github.com/agendei/agendei/internal/platform/db"
)

// ReminderRoute names the number an owner's reminders go from now: "own"
// when their connected number's reminder template is APPROVED (Ready's
// rule, for every client at once), "" when WhatsApp carries none.
func (s *Service) ReminderRoute(ctx context.Context, q db.Querier, ownerID string) (string, error) {
	var status string
	err := q.QueryRowContext(ctx, `SELECT t.status FROM whatsapp_templates t JOIN whatsapp_accounts a ON a.user_id = t.user_id
		WHERE t.user_id = ? AND t.kind = ?`, ownerID, KindReminder).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && status != "APPROVED") {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return "own", nil
}

// CanReach reports whether a client phone is one a message can be sent to.
func (s *Service) CanReach(phone string) bool { return Recipient(phone) != "" }

package whatsapp

import (
	"context"

	"github.com/agendei/agendei/internal/platform/db"
)

// ReminderRoute names the number an owner's reminders go from now, for the
// reminders card: "own" (their connected number, its reminder template
// approved), "agendei" (the operator's number, switched on, its template
// approved and this month's allowance not used up), or "" when WhatsApp
// carries none — the send's own rule (RouteOf, reserve) for every client
// with a phone at once.
func (s *Service) ReminderRoute(ctx context.Context, q db.Querier, ownerID string) (string, error) {
	via, err := s.RouteOf(ctx, q, ownerID, KindReminder)
	if err != nil || via != viaOperator {
		return via, err
	}
	_, used, err := s.operatorUsed(ctx, q, ownerID)
	if err != nil || used >= s.Operator.Allowance {
		return "", err
	}
	return "agendei", nil
}

// CanReach reports whether a client phone is one a message can be sent to.
func (s *Service) CanReach(phone string) bool { return Recipient(phone) != "" }

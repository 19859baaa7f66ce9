// Package notifications records what the owner should be told: a new
// booking, a client's cancellation, a reminder sent, system messages.
package notifications

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/platform/db"
)

// Types of notification (SPEC §3).
const (
	Appointment = "appointment"
	System      = "system"
	Client      = "client"
	Reminder    = "reminder"
)

// Create adds a notification for an owner, inside the caller's transaction
// when q is one. appointmentID may be empty.
func Create(ctx context.Context, q db.Querier, now time.Time, userID, kind, title, description, appointmentID string) error {
	var appt any
	if appointmentID != "" {
		appt = appointmentID
	}
	_, err := q.ExecContext(ctx, `INSERT INTO notifications (id, user_id, type, title, description, read, appointment_id, created_at) VALUES (?, ?, ?, ?, ?, FALSE, ?, ?)`,
		uuid.NewString(), userID, kind, title, description, appt, now)
	return err
}

package mercadopago

import (
	"context"
	"encoding/json"
	"time"

	"github.com/agendei/agendei/internal/jobs"
)

// checkJob reads a Pix payment through the API shortly before its hold
// ends, as the webhook would: a client who paid in time is confirmed even
// when Mercado Pago's notification was lost or is late, instead of seeing
// the hold expire and the deposit flagged for return.
const checkJob = "mercadopago.check"

// CheckBefore is how long before the hold's end the payment is read.
const CheckBefore = 10 * time.Second

type checkPayload struct {
	OwnerID   string `json:"ownerId"`
	PaymentID string `json:"paymentId"`
}

// RegisterJobs registers the payment check with the job queue.
func (s *Service) RegisterJobs() {
	s.Jobs.Register(checkJob, func(ctx context.Context, payload []byte) error {
		var p checkPayload
		if err := json.Unmarshal(payload, &p); err != nil {
			return err
		}
		ok, err := s.Connected(ctx, p.OwnerID)
		if err != nil || !ok {
			return err // disconnected meanwhile: the owner confirms by hand
		}
		return s.Sync(ctx, p.OwnerID, p.PaymentID)
	})
}

// scheduleCheck queues the check of a new payment CheckBefore the hold ends.
func (s *Service) scheduleCheck(ctx context.Context, in ChargeInput, paymentID string) error {
	if s.Jobs == nil {
		return nil
	}
	at := in.ExpiresAt.Add(-CheckBefore)
	if now := s.Clock.Now(); at.Before(now) {
		at = now
	}
	err := s.Jobs.Enqueue(ctx, s.DB, jobs.About{UserID: in.OwnerID, AppointmentID: in.AppointmentID}, checkJob,
		checkPayload{OwnerID: in.OwnerID, PaymentID: paymentID}, at, 3)
	s.Jobs.Wake()
	return err
}

package whatsapp

import (
	"context"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// Anyone can fill the public booking form with any phone, and each template
// message is billed to the owner: the WhatsApp confirmations a booking
// causes are limited per recipient (a stranger's phone cannot be flooded
// from the owner's number) and per owner (nor the owner's bill run up), as
// the confirmation e-mails are. Over a limit the booking stands; only the
// WhatsApp confirmation is skipped (the e-mail, if any, still goes).
var (
	confirmPerRecipient = ratelimit.Rule{Name: "whatsapp:confirm:to", Max: 3, Window: time.Hour}
	confirmPerOwner     = ratelimit.Rule{Name: "whatsapp:confirm:owner", Max: 60, Window: time.Hour}
)

// QueueConfirmation queues a booking's WhatsApp confirmation in the
// booking's transaction, when the owner can send it (Ready) and the limits
// allow; it reports whether it did.
func (s *Service) QueueConfirmation(ctx context.Context, tx *db.Tx, ownerID, appointmentID, clientPhone, at string) (bool, error) {
	to := Recipient(clientPhone)
	ready, err := s.Ready(ctx, tx, ownerID, KindConfirmation, clientPhone)
	if err != nil || !ready {
		return false, err
	}
	now := s.Clock.Now()
	for _, c := range []struct {
		rule ratelimit.Rule
		key  string
	}{{confirmPerRecipient, RefHash(to)}, {confirmPerOwner, ownerID}} {
		ok, _, err := ratelimit.AllowTx(ctx, tx, now, c.rule, c.key)
		if err != nil {
			return false, err
		}
		if !ok {
			httpx.Logger(ctx).Warn("whatsapp confirmation skipped: over the limit", "rule", c.rule.Name, "owner", ownerID, "appointment", appointmentID)
			return false, nil
		}
	}
	return s.Queue(ctx, tx, Message{OwnerID: ownerID, AppointmentID: appointmentID, ClientPhone: clientPhone, Kind: KindConfirmation, For: at})
}

// QueueCancellation queues the owner's cancellation notice to the client
// in the cancellation's transaction, when a number can carry it (the
// owner's own or the operator's, within its allowance); it reports whether
// it did. The owner acts here (not an anonymous visitor): no limits but
// the allowance.
func (s *Service) QueueCancellation(ctx context.Context, tx *db.Tx, ownerID, appointmentID, clientPhone, at string) (bool, error) {
	return s.Queue(ctx, tx, Message{OwnerID: ownerID, AppointmentID: appointmentID, ClientPhone: clientPhone, Kind: KindCancellation, For: at})
}

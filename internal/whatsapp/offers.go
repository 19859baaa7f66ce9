package whatsapp

// Waitlist offers by WhatsApp (issue 28, points 2 and 3): a freed time
// offered to a client on the waitlist goes from the owner's number when it
// can carry it (connected, the offer template APPROVED, the client gave a
// phone), else by e-mail as before. The message is a whatsapp.send job
// like the others — the same idempotency key (one per offer: an entry
// offered a time), lease, retries, statuses and monthly count — and one
// that fails for good, or whose outcome a crash left unknown, goes by
// e-mail instead.

import (
	"context"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
)

// OfferContent is what an offer's message says.
type OfferContent struct {
	Phone, Client, Practice, Service string
	Date, Time                       string // local "YYYY-MM-DD", "HH:MM"
	Until                            string // local "HH:MM" the link holds the time until
	// Link is the claim link, filled only when asked to mint it.
	Link string
}

// Offers is the waitlist as the WhatsApp sender needs it.
type Offers interface {
	// OfferContent is an offer's message, ok false when the offer is no
	// longer open (claimed, expired, its entry booked or gone). With mint,
	// a fresh claim link replaces the offer's (the link is kept only as a
	// hash): the one this message carries.
	OfferContent(ctx context.Context, ownerID, offerID string, mint bool) (c OfferContent, ok bool, err error)
	// EmailOffer sends the offer by e-mail instead (with a fresh link).
	EmailOffer(ctx context.Context, ownerID, offerID string) error
}

// CanOffer reports whether a waitlist offer to this phone would go by
// WhatsApp (the owner's number connected, its offer template approved):
// what the client is told at joining, as QueueOffer decides it later.
func (s *Service) CanOffer(ctx context.Context, q db.Querier, ownerID, clientPhone string) (bool, error) {
	if s.Offers == nil {
		return false, nil
	}
	return s.Ready(ctx, q, ownerID, KindWaitlistOffer, clientPhone)
}

// QueueOffer writes the job that sends a waitlist offer by WhatsApp when
// the owner's number can carry it, in the caller's transaction (the one
// that writes the offer), and reports whether it did; false means the
// e-mail is the channel.
func (s *Service) QueueOffer(ctx context.Context, tx *db.Tx, ownerID, offerID, clientKey, clientPhone string) (bool, error) {
	if s.Offers == nil {
		return false, nil
	}
	ready, err := s.Ready(ctx, tx, ownerID, KindWaitlistOffer, clientPhone)
	if err != nil || !ready {
		return false, err
	}
	err = s.Jobs.Enqueue(ctx, tx, jobs.About{UserID: ownerID, ClientKey: clientKey}, sendJob,
		sendPayload{OwnerID: ownerID, OfferID: offerID, Kind: KindWaitlistOffer}, time.Time{}, maxTries+3)
	if err == nil {
		db.AfterCommit(tx, s.Jobs.Wake) // an offer's minutes are counting
	}
	return err == nil, err
}

// deliverOffer sends an offer's message at most once per offer, as
// deliver does a reminder's; an offer no longer open sends nothing.
func (s *Service) deliverOffer(ctx context.Context, p sendPayload) error {
	if s.Offers == nil {
		return nil
	}
	c, open, err := s.Offers.OfferContent(ctx, p.OwnerID, p.OfferID, false)
	if err != nil || !open {
		return err
	}
	acc, err := s.load(ctx, s.DB, p.OwnerID)
	if err != nil {
		return err
	}
	ready := false
	if acc != nil {
		_ = s.RefreshTemplates(ctx, p.OwnerID, 10*time.Minute)
		if ready, err = s.Ready(ctx, s.DB, p.OwnerID, p.Kind, c.Phone); err != nil {
			return err
		}
	}
	id, _, attempt, owned, err := s.claim(ctx, p)
	if err != nil || !owned {
		return err
	}
	if !ready {
		return s.giveUp(ctx, p, id, "failed", "WhatsApp indisponível para esta mensagem (desconectado, modelo não aprovado ou sem telefone)")
	}
	// The link is minted only now, by the attempt that owns the message.
	c, open, err = s.Offers.OfferContent(ctx, p.OwnerID, p.OfferID, true)
	if err != nil {
		return err
	}
	if !open {
		_, err := s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET state = 'failed', error = 'a oferta foi encerrada antes do envio', locked_until = NULL
			WHERE id = ? AND state IN ('sending', 'retry')`, id)
		return err
	}
	msg := TemplateMessage{To: Recipient(c.Phone), Template: WaitlistOfferTemplate().Name, Language: Language,
		Body: []string{c.Client, c.Practice, c.Service, brfmt.LongDate(c.Date), c.Time, c.Until, c.Link}, CallbackData: p.idemKey()}
	wamid, sendErr := s.Graph.SendTemplate(ctx, acc.Token, acc.PhoneNumberID, msg)
	return s.record(ctx, p, id, attempt, wamid, sendErr)
}

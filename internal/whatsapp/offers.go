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
// WhatsApp (the owner's number, or the operator's they turned on, with its
// offer template approved, and the operator's monthly allowance not used
// up): what the client is told at joining, as QueueOffer decides it later.
func (s *Service) CanOffer(ctx context.Context, q db.Querier, ownerID, clientPhone string) (bool, error) {
	if s.Offers == nil {
		return false, nil
	}
	via, err := s.route(ctx, q, ownerID, KindWaitlistOffer, clientPhone)
	if err != nil || via != viaOperator {
		return via != "", err
	}
	_, used, err := s.operatorUsed(ctx, q, ownerID) // the month's allowance as it stands now
	return err == nil && used < s.Operator.Allowance, err
}

// QueueOffer writes the job that sends a waitlist offer by WhatsApp when
// the owner's number can carry it, in the caller's transaction (the one
// that writes the offer), and reports whether it did; false means the
// e-mail is the channel.
func (s *Service) QueueOffer(ctx context.Context, tx *db.Tx, ownerID, offerID, clientKey, clientPhone string) (bool, error) {
	if s.Offers == nil {
		return false, nil
	}
	queued, err := s.queue(ctx, tx, jobs.About{UserID: ownerID, ClientKey: clientKey}, clientPhone,
		sendPayload{OwnerID: ownerID, OfferID: offerID, Kind: KindWaitlistOffer})
	if err == nil && queued {
		db.AfterCommit(tx, s.Jobs.Wake) // an offer's minutes are counting
	}
	return queued, err
}

// deliverOffer sends an offer's message at most once per offer, as
// deliver does a reminder's; an offer no longer open sends nothing.
func (s *Service) deliverOffer(ctx context.Context, p sendPayload) error {
	if s.Offers == nil {
		return nil
	}
	c, open, err := s.Offers.OfferContent(ctx, p.OwnerID, p.OfferID, false)
	if err != nil {
		return err
	}
	if !open {
		return s.drop(ctx, p, "a oferta foi encerrada antes do envio")
	}
	snd, err := s.sender(ctx, p, c.Phone)
	if err != nil {
		return err
	}
	id, _, attempt, owned, err := s.claim(ctx, p)
	if err != nil || !owned {
		return err
	}
	if !snd.ready {
		return s.giveUp(ctx, p, id, "failed", "WhatsApp indisponível para esta mensagem (desconectado, modelo não aprovado ou sem telefone)")
	}
	// The link is minted only now, by the attempt that owns the message.
	c, open, err = s.Offers.OfferContent(ctx, p.OwnerID, p.OfferID, true)
	if err != nil {
		return err
	}
	if !open {
		// Never sent, so never billed: an operator's does not count against the allowance.
		_, err := s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET state = 'failed', error = 'a oferta foi encerrada antes do envio', locked_until = NULL
			WHERE id = ? AND state IN ('sending', 'retry')`, id)
		return err
	}
	body := []string{c.Client, c.Practice, c.Service, brfmt.LongDate(c.Date), c.Time, c.Until, c.Link}
	if snd.operator {
		body = []string{c.Practice, c.Client, c.Service, brfmt.LongDate(c.Date), c.Time, c.Until, c.Link} // the practice first
	}
	msg := TemplateMessage{To: Recipient(c.Phone), Template: snd.template(p.Kind).Name, Language: Language, Body: body, CallbackData: p.idemKey()}
	wamid, sendErr := s.Graph.SendTemplate(ctx, snd.token, snd.phoneNumberID, msg)
	return s.record(ctx, p, id, attempt, wamid, sendErr)
}

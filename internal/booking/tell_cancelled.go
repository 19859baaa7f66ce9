// Side effects of an owner's cancellation: the client's e-mail with the
// invite that removes the appointment from their calendar.

package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

// TellCancelled tells the client that the owner cancelled the
// appointment: by e-mail, with an invite that removes it from their
// calendar (METHOD:CANCEL, the same UID, the next sequence), and by
// WhatsApp when a number can carry it (the owner's own, or the Agendei
// number they turned on; issue 41), and to their subscribed browsers by
// push. It returns the channels that carried the notice, in the words of
// the answers (channelOf): "email", "whatsapp", "email_whatsapp", "push"
// (a notification alone), or "none" when no message could leave.
func (s *Service) TellCancelled(ctx context.Context, ownerID, id string) (string, error) {
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	channel := "none"
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var err error
		channel, err = s.tellCancelled(ctx, tx, st, ownerID, id)
		return err
	})
	return channel, err
}

// tellCancelled queues TellCancelled's messages inside the caller's
// transaction and returns the channels that carry them (channelOf): the
// e-mail (none without an address, a mailer, or a time no slot can read),
// WhatsApp's notice (none without a phone or a number to carry it) and the
// push notification (none without a subscribed browser).
func (s *Service) tellCancelled(ctx context.Context, tx *db.Tx, st *schedule.Setup, ownerID, id string) (string, error) {
	var b booked
	b.Booked = &Booked{ID: id}
	var status string
	err := tx.QueryRowContext(ctx, `SELECT client_name, client_email, client_phone, service_name, professional_name, appointment_date, appointment_time, duration,
		price_cents, status, sequence FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
		Scan(&b.ClientName, &b.ClientEmail, &b.ClientPhone, &b.ServiceName, &b.ProfessionalName, &b.Date, &b.Time, &b.Duration, &b.PriceCents, &status, &b.Sequence)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && status != "cancelled") {
		return "none", nil
	}
	if err != nil {
		return "", err
	}
	byWhatsApp := false
	if cs, ok := s.WhatsApp.(CancellationSender); ok && b.ClientPhone != "" {
		if byWhatsApp, err = cs.SendCancellation(ctx, tx, ownerID, id, b.ClientPhone, b.Date+" "+b.Time); err != nil {
			return "", err
		}
	}
	day, err1 := slots.ParseDate(b.Date)
	minute, err2 := slots.ParseHHMM(b.Time)
	if err1 != nil || err2 != nil {
		return channelOf(false, byWhatsApp, false), nil
	}
	b.OwnerID, b.OwnerName = ownerID, st.Name
	b.Start = time.Unix(slots.At(day, minute, st.Loc)*60, 0).In(st.Loc)
	// Their subscribed browsers hear it too (besides the e-mail).
	byPush, err := s.pushNotice(ctx, tx, b, "cancelled", "")
	if err != nil {
		return "", err
	}
	byEmail, err := s.emailCancelled(ctx, tx, st, ownerID, b)
	return channelOf(byEmail, byWhatsApp, byPush), err
}

// emailCancelled queues the cancellation's e-mail with its calendar
// cancellation, and says whether one was queued.
func (s *Service) emailCancelled(ctx context.Context, tx *db.Tx, st *schedule.Setup, ownerID string, b booked) (bool, error) {
	id := b.ID
	if b.ClientEmail == "" || s.Mailer == nil {
		return false, nil
	}
	b.Sequence++
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET sequence = ? WHERE id = ?`, b.Sequence, id); err != nil {
		return false, err
	}
	start := b.Start
	if err := locate(ctx, tx, b); err != nil {
		return false, err
	}
	msg, err := mail.Compose(b.ClientEmail, mail.Content{
		Subject:    fmt.Sprintf("Agendamento cancelado: %s em %s às %s", b.ServiceName, brfmt.Date(b.Date), b.Time),
		Greeting:   fmt.Sprintf("Olá, %s!", b.ClientName),
		Paragraphs: []string{fmt.Sprintf("%s cancelou o seu agendamento abaixo. O convite em anexo o retira da sua agenda.", st.Name)},
		Details:    b.details(),
		Links:      b.cancelledPlaceLinks(),
		Footer:     "Para marcar outro horário, fale com " + st.Name + " ou use a página de agendamento.",
	})
	if err != nil {
		return false, err
	}
	inv := clientInvite(id, start, b.Duration, b.ServiceName, b.ProfessionalName, st.Name, b.Place.Text(), b.Sequence, s.Clock.Now())
	inv.Description, inv.Cancelled = "Cancelado por "+st.Name+".", true
	if inv, err = addressed(ctx, tx, inv, ownerID, st.Name, b.ClientName, b.ClientEmail); err != nil {
		return false, err
	}
	msg.Attachments = []mail.Attachment{{Name: "cancelamento.ics", ContentType: inv.ContentType(), Data: ICS(inv)}}
	return true, s.Mailer.QueueToClient(ctx, tx, about(ownerID, id), msg)
}

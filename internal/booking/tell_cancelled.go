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

// TellCancelled e-mails the client that the owner cancelled the appointment,
// with an invite that removes it from their calendar (METHOD:CANCEL, the
// same UID, the next sequence), and pushes it to their subscribed browsers.
// No e-mail is sent without an address. It returns the channel that
// carried the notice, in the words of the answers (channelOf): "email",
// "push" (a notification alone), or "none" when no message could leave —
// WhatsApp carries no automatic cancellation: the owner sends it by hand.
func (s *Service) TellCancelled(ctx context.Context, ownerID, id string) (string, error) {
	if s.Mailer == nil && s.Push == nil {
		return "none", nil
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	var emailed, pushed bool
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var err error
		emailed, pushed, err = s.tellCancelled(ctx, tx, st, ownerID, id)
		return err
	})
	return channelOf(emailed, false, pushed), err
}

// tellCancelled queues TellCancelled's e-mail and push notification inside
// the caller's transaction, and says which were queued (no e-mail without
// an address or a mailer, no push without a subscribed browser, neither
// for a time no slot can read).
func (s *Service) tellCancelled(ctx context.Context, tx *db.Tx, st *schedule.Setup, ownerID, id string) (emailed, pushed bool, err error) {
	var b booked
	b.Booked = &Booked{ID: id}
	var status string
	err = tx.QueryRowContext(ctx, `SELECT client_name, client_email, service_name, professional_name, appointment_date, appointment_time, duration,
		price_cents, status, sequence FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
		Scan(&b.ClientName, &b.ClientEmail, &b.ServiceName, &b.ProfessionalName, &b.Date, &b.Time, &b.Duration, &b.PriceCents, &status, &b.Sequence)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && status != "cancelled") {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	day, err1 := slots.ParseDate(b.Date)
	minute, err2 := slots.ParseHHMM(b.Time)
	if err1 != nil || err2 != nil {
		return false, false, nil
	}
	b.OwnerID, b.OwnerName = ownerID, st.Name
	b.Start = time.Unix(slots.At(day, minute, st.Loc)*60, 0).In(st.Loc)
	// Their subscribed browsers hear it too (besides the e-mail).
	if pushed, err = s.pushNotice(ctx, tx, b, "cancelled", ""); err != nil {
		return false, false, err
	}
	if b.ClientEmail == "" || s.Mailer == nil {
		return false, pushed, nil
	}
	b.Sequence++
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET sequence = ? WHERE id = ?`, b.Sequence, id); err != nil {
		return false, false, err
	}
	start := b.Start
	if err := locate(ctx, tx, b); err != nil {
		return false, false, err
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
		return false, false, err
	}
	inv := clientInvite(id, start, b.Duration, b.ServiceName, b.ProfessionalName, st.Name, b.Place.Text(), b.Sequence, s.Clock.Now())
	inv.Description, inv.Cancelled = "Cancelado por "+st.Name+".", true
	if inv, err = addressed(ctx, tx, inv, ownerID, st.Name, b.ClientName, b.ClientEmail); err != nil {
		return false, false, err
	}
	msg.Attachments = []mail.Attachment{{Name: "cancelamento.ics", ContentType: inv.ContentType(), Data: ICS(inv)}}
	return true, pushed, s.Mailer.QueueToClient(ctx, tx, about(ownerID, id), msg)
}

// Deposits at booking (issue 29): a booking of a service whose policy asks
// for a deposit holds its time through Hold like every booking, as
// "aguardando sinal" (its deposit pending) until paid, cancelled or expired.

package booking

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
)

// DepositView is what the confirmation card shows of a booking's deposit.
type DepositView struct {
	AmountCents int64     `json:"amountCents"`
	State       string    `json:"state"`
	ExpiresAt   time.Time `json:"expiresAt"`
	// CopyPaste is the "Pix Copia e Cola" text ("" when the charge could
	// not be made: the private page tries again); the QR code is drawn from
	// it (GET /api/public/bookings/{token}/pix.png).
	CopyPaste string `json:"copyPaste"`
	Receiver  string `json:"receiver"`
	Policy    string `json:"policy"`
}

// depositPlan is a booking's deposit decided before its transaction.
type depositPlan struct {
	policy  deposits.Policy
	amount  int64
	charger deposits.Charger
	text    string
	source  string // who asked: "" a client's booking, deposits.ByOwner "Cobrar sinal"
}

func (s *Service) chargers() deposits.Chargers {
	if s.Deposits != nil {
		return s.Deposits
	}
	return deposits.Static{}
}

// planDeposit reads the service's policy and the owner's charger: nil when
// the booking asks for no deposit (no policy, a free service with a
// percentage, or an owner who cannot take deposits). unreached: the policy
// asks one, but the owner's way of charging cannot reach this client (Mercado
// Pago without the payer's e-mail, and no Pix key to fall back on) — the
// booking then asks none, and the owner is told.
func (s *Service) planDeposit(ctx context.Context, st *schedule.Setup, svc *schedule.Service, clientEmail string) (_ *depositPlan, unreached bool, _ error) {
	p, err := deposits.PolicyOf(ctx, s.DB, st.OwnerID, svc.ID)
	if err != nil {
		return nil, false, err
	}
	amount := p.Amount(svc.PriceCents)
	if amount <= 0 {
		return nil, false, nil
	}
	c, err := s.chargers().For(ctx, s.DB, st.OwnerID)
	if err != nil || c == nil {
		return nil, false, err
	}
	if !deposits.Reaches(c, clientEmail) {
		return nil, true, nil
	}
	return &depositPlan{policy: p, amount: amount, charger: c, text: p.Text(svc.PriceCents, st.Rules.CancelCutoffHours)}, false, nil
}

// tellUnreached is the owner's notice of a booking that asked no deposit
// because the client could not be charged: the Pix of Mercado Pago needs an
// e-mail, and the owner has no key for the static Pix.
func (s *Service) tellUnreached(ctx context.Context, tx *db.Tx, b booked) error {
	desc := fmt.Sprintf("%s agendou %s com %s em %s às %s sem informar e-mail, e o Pix do Mercado Pago precisa de um: o agendamento foi confirmado sem sinal. "+
		"Cadastre sua chave Pix no Perfil para cobrar o sinal também de quem informa só o telefone.", b.ClientName, b.ServiceName, b.ProfessionalName, brfmt.Date(b.Date), b.Time)
	return s.Notes.Create(ctx, tx, b.OwnerID, notifications.Appointment, "Agendamento sem sinal", desc, b.ID)
}

// openDeposit writes the pending deposit and its expiry job in the
// booking's transaction.
func (s *Service) openDeposit(ctx context.Context, tx *db.Tx, plan *depositPlan, ownerID string, out *Booked, now time.Time) (*deposits.Deposit, error) {
	d, err := deposits.Open(ctx, tx, s.Queue, deposits.Opening{OwnerID: ownerID, AppointmentID: out.ID, AmountCents: plan.amount,
		Policy: plan.policy, Provider: deposits.ProviderStatic, Now: now, Minute: s.DepositMinute, Source: plan.source})
	if err != nil {
		return nil, err
	}
	// The charge is made after the commit (chargeDeposit, briefly); this
	// job makes it when that try did not — a provider slow or down never
	// holds the client's request, and no page view calls the provider.
	if err := s.Queue.Enqueue(ctx, tx, about(ownerID, out.ID), deposits.ChargeJob,
		deposits.ExpireJobPayload{OwnerID: ownerID, AppointmentID: out.ID}, now.Add(chargeBound), 12); err != nil {
		return nil, err
	}
	db.AfterCommit(tx, s.Queue.Wake)
	out.Deposit = &DepositView{AmountCents: d.AmountCents, State: d.State, ExpiresAt: d.ExpiresAt, Policy: plan.text}
	return d, nil
}

// chargeBound is how long a booking's request waits for its deposit's
// charge after the commit; past it the booking answers with the deposit
// pending and the charge job makes the charge.
const chargeBound = 3 * time.Second

// chargeDeposit asks the owner's charger for the booking's charge once the
// booking has committed, stores it, and e-mails the client the Pix. A
// failed charge leaves the hold standing without its text: the client's
// private page's button asks again (ChargeAgain).
func (s *Service) chargeDeposit(ctx context.Context, plan *depositPlan, d *deposits.Deposit, b booked) {
	bounded, cancel := context.WithTimeout(ctx, chargeBound)
	defer cancel()
	c, err := plan.charger.Charge(bounded, deposits.ChargeRequest{OwnerID: b.OwnerID, AppointmentID: b.ID, Reference: d.Reference, AmountCents: d.AmountCents,
		Description: chargeDescription(b), ExpiresAt: d.ExpiresAt})
	if err != nil {
		httpx.Logger(ctx).Warn("deposit charge not made in time; the charge job tries again", "appointment", b.ID, "err", err)
		return
	}
	if err := s.storeCharge(ctx, b, c); err != nil {
		httpx.Logger(ctx).Error("deposit charge not stored; the charge job tries again", "appointment", b.ID, "err", err)
	}
}

func chargeDescription(b booked) string {
	return fmt.Sprintf("Sinal: %s com %s em %s às %s", b.ServiceName, b.ProfessionalName, brfmt.Date(b.Date), b.Time)
}

// storeCharge keeps a deposit's charge and e-mails the client the Pix, once:
// only the first to store it (the booking's try or the charge job) sends.
func (s *Service) storeCharge(ctx context.Context, b booked, c deposits.Charge) error {
	b.Deposit.CopyPaste, b.Deposit.Receiver = c.CopyPaste, c.Receiver
	return s.DB.OwnerTx(ctx, b.OwnerID, func(tx *db.Tx) error {
		first, err := deposits.SetFirstCharge(ctx, tx, b.ID, c, s.Clock.Now())
		if err != nil || !first {
			return err
		}
		return s.askForDeposit(ctx, tx, b)
	})
}

// chargeLater is the charge job: the charge of a deposit still pending and
// uncharged, made through the owner's charger as the booking would have.
// A failure is retried with back-off until the hold ends.
func (s *Service) chargeLater(ctx context.Context, payload []byte) error {
	var p deposits.ExpireJobPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil // nothing to retry
	}
	return s.chargePending(ctx, p)
}

// chargePending makes the charge of a deposit still pending and uncharged
// (the charge job's and the client's "Gerar o código Pix"): the first to
// store it sends the client the Pix, as at booking.
func (s *Service) chargePending(ctx context.Context, p deposits.ExpireJobPayload) error {
	st, err := s.setupOf(ctx, p.OwnerID)
	if err != nil {
		return err
	}
	b, status, err := s.bookedByID(ctx, s.DB, st, p.OwnerID, p.AppointmentID)
	if errors.Is(err, deposits.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	d, err := deposits.Get(ctx, s.DB, p.OwnerID, p.AppointmentID)
	if err != nil || d == nil {
		return err
	}
	if !Active(status) || d.State != deposits.Pending || d.CopyPaste != "" || !d.ExpiresAt.After(s.Clock.Now()) {
		return nil // paid, released, charged already, or too late to pay
	}
	c, err := s.chargers().For(ctx, s.DB, p.OwnerID)
	if err != nil {
		return err
	}
	if c == nil {
		return nil // the owner removed every way to charge meanwhile
	}
	ch, err := c.Charge(ctx, deposits.ChargeRequest{OwnerID: p.OwnerID, AppointmentID: p.AppointmentID, Reference: d.Reference, AmountCents: d.AmountCents,
		Description: chargeDescription(b), ExpiresAt: d.ExpiresAt})
	if err != nil {
		return err
	}
	err = s.DB.OwnerTx(ctx, p.OwnerID, func(tx *db.Tx) error {
		first, err := deposits.SetFirstCharge(ctx, tx, b.ID, ch, s.Clock.Now())
		if err != nil || !first {
			return err
		}
		if b.CancelToken, err = addLink(ctx, tx, p.OwnerID, p.AppointmentID, s.Clock.Now()); err != nil {
			return err
		}
		b.Deposit.CopyPaste, b.Deposit.Receiver = ch.CopyPaste, ch.Receiver
		return s.askForDeposit(ctx, tx, b)
	})
	return err
}

// askForDeposit e-mails the client the Pix to pay: amount, receiver,
// deadline, the copy-and-paste text and its QR code (attached), within the
// confirmations' limits.
func (s *Service) askForDeposit(ctx context.Context, tx *db.Tx, b booked) error {
	if s.Mailer == nil || b.ClientEmail == "" {
		return nil
	}
	send, err := s.mayConfirm(ctx, tx, s.Clock.Now(), b)
	if err != nil || !send {
		return err
	}
	msg, err := depositMail(b, s.BaseURL)
	if err != nil {
		return err
	}
	return s.Mailer.QueueToClient(ctx, tx, about(b.OwnerID, b.ID), msg)
}

// ConfirmDeposit is "Sinal recebido": the owner's tap (source
// deposits.ByOwner) or a provider's confirmed payment (its name). A pending
// deposit becomes paid and the booking confirmed: the client gets the
// confirmation e-mail (with a fresh private link and the invite) and the
// reminders; the appointment turns from 'awaiting_deposit' to 'confirmed'
// in the same transaction. A deposit already paid changes nothing (replays
// are fine); one whose hold expired answers deposits.ErrExpired — the time
// may be someone else's now, so nothing is confirmed (a provider then flags
// the payment for return: deposits.FlagLatePayment).
func (s *Service) ConfirmDeposit(ctx context.Context, ownerID, appointmentID, source string) error {
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return err
	}
	return s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		b, status, err := s.bookedByID(ctx, tx, st, ownerID, appointmentID)
		if err != nil {
			return err
		}
		now := s.Clock.Now()
		switch {
		case Active(status):
		case status == "completed" || status == "no_show":
			// Marked attended (or not) while its Pix was still due: a payment
			// in time is simply received; the appointment has happened, so
			// the client is sent no confirmation.
			changed, err := deposits.MarkPaid(ctx, tx, ownerID, appointmentID, source, now)
			if err != nil || !changed {
				return err
			}
			desc := fmt.Sprintf("Sinal de %s recebido: %s, %s com %s em %s às %s.", brfmt.Money(b.Deposit.AmountCents), b.ClientName, b.ServiceName,
				b.ProfessionalName, brfmt.Date(b.Date), b.Time)
			return s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Sinal recebido", desc, appointmentID)
		default:
			if _, err := deposits.MarkPaid(ctx, tx, ownerID, appointmentID, source, now); err != nil {
				return err
			}
			return deposits.ErrExpired
		}
		changed, err := deposits.MarkPaid(ctx, tx, ownerID, appointmentID, source, now)
		if err != nil || !changed {
			return err
		}
		desc := fmt.Sprintf("Sinal de %s recebido: %s, %s com %s em %s às %s está confirmado.", brfmt.Money(b.Deposit.AmountCents), b.ClientName, b.ServiceName,
			b.ProfessionalName, brfmt.Date(b.Date), b.Time)
		if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Sinal recebido", desc, appointmentID); err != nil {
			return err
		}
		return s.confirmPaid(ctx, tx, now, b)
	})
}

// confirmPaid confirms a paid booking (its hold turns 'confirmed') and
// tells the client by the channels a booking without a deposit uses:
// WhatsApp's confirmation for a phone, the e-mail (a fresh private link and
// the invite) with the reminders, and for a client who gave only a phone
// the reminders by WhatsApp.
func (s *Service) confirmPaid(ctx context.Context, tx *db.Tx, now time.Time, b booked) error {
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET status = 'confirmed', remind = TRUE, updated_at = ? WHERE id = ? AND user_id = ?`,
		now, b.ID, b.OwnerID); err != nil {
		return err
	}
	if _, err := s.confirmByWhatsApp(ctx, tx, b); err != nil {
		return err
	}
	if s.Mailer == nil {
		return nil
	}
	if b.ClientEmail == "" {
		if b.ClientPhone != "" && s.WhatsApp != nil {
			return s.remindLater(ctx, tx, now, b)
		}
		return nil
	}
	token, err := addLink(ctx, tx, b.OwnerID, b.ID, now)
	if err != nil {
		return err
	}
	b.CancelToken = token
	return s.confirmToClient(ctx, tx, now, b)
}

// bookedByID reads an appointment as the e-mails describe it, with its deposit.
func (s *Service) bookedByID(ctx context.Context, q db.Querier, st *schedule.Setup, ownerID, id string) (booked, string, error) {
	b := booked{Booked: &Booked{ID: id}, OwnerID: ownerID, OwnerName: st.Name}
	var status string
	var starts time.Time
	err := q.QueryRowContext(ctx, `SELECT client_name, client_email, client_phone, service_name, professional_name, appointment_date, appointment_time, duration,
		price_cents, status, sequence, starts_at FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
		Scan(&b.ClientName, &b.ClientEmail, &b.ClientPhone, &b.ServiceName, &b.ProfessionalName, &b.Date, &b.Time, &b.Duration, &b.PriceCents, &status, &b.Sequence, &starts)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return b, "", deposits.ErrNotFound
		}
		return b, "", err
	}
	b.Start = starts.In(st.Loc)
	d, err := deposits.Get(ctx, q, ownerID, id)
	if err != nil {
		return b, "", err
	}
	if d == nil {
		return b, "", deposits.ErrNotFound
	}
	b.Deposit = &DepositView{AmountCents: d.AmountCents, State: d.State, ExpiresAt: d.ExpiresAt, CopyPaste: d.CopyPaste, Receiver: d.Receiver}
	return b, status, nil
}

// expireDeposit is the expiry job: a deposit still pending at its deadline
// releases its booking — cancelled, its time told to the waitlist, the
// owner notified, the client e-mailed — all in one transaction, decided by
// the deposit's conditional update (a "Sinal recebido" at the same moment
// either comes first and the job finds it paid, or comes second and is
// refused).
func (s *Service) expireDeposit(ctx context.Context, payload []byte) error {
	var p deposits.ExpireJobPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil // nothing to retry
	}
	st, err := s.setupOf(ctx, p.OwnerID)
	if err != nil {
		return err
	}
	return s.DB.OwnerTx(ctx, p.OwnerID, func(tx *db.Tx) error {
		now := s.Clock.Now()
		b, status, err := s.bookedByID(ctx, tx, st, p.OwnerID, p.AppointmentID)
		if errors.Is(err, deposits.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if b.Deposit.State == deposits.Pending && b.Deposit.ExpiresAt.After(now) {
			return fmt.Errorf("deposit of %s not yet due", p.AppointmentID) // run again later
		}
		expired, err := deposits.Expire(ctx, tx, p.OwnerID, p.AppointmentID, now)
		if err != nil || !expired || !Active(status) {
			return err
		}
		var pro string
		var before, after int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(professional_id, ''), buffer_before, buffer_after FROM appointments WHERE id = ?`, p.AppointmentID).
			Scan(&pro, &before, &after); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE appointments SET status = 'cancelled', updated_at = ? WHERE id = ? AND user_id = ? AND status IN ('awaiting_deposit', 'confirmed')`,
			now, p.AppointmentID, p.OwnerID); err != nil {
			return err
		}
		// A waitlist claim awaiting this deposit waits again, in its place
		// (issue 38: an expired deposit left the client neither the time nor
		// their place on the list).
		if _, err := tx.ExecContext(ctx, `UPDATE waitlist_entries SET deposit_appointment_id = NULL, appointment_id = NULL WHERE deposit_appointment_id = ? AND user_id = ?`,
			p.AppointmentID, p.OwnerID); err != nil {
			return err
		}
		if err := freed.Tell(ctx, s.Queue, tx, freed.Appointment(p.OwnerID, pro, b.Date, b.Time, b.Duration, before, after, now)); err != nil {
			return err
		}
		desc := fmt.Sprintf("O sinal de %s não foi pago no prazo: o horário de %s (%s com %s em %s às %s) foi liberado.", brfmt.Money(b.Deposit.AmountCents),
			b.ClientName, b.ServiceName, b.ProfessionalName, brfmt.Date(b.Date), b.Time)
		if err := s.Notes.Create(ctx, tx, p.OwnerID, notifications.Appointment, "Sinal não pago: horário liberado", desc, p.AppointmentID); err != nil {
			return err
		}
		if s.Mailer == nil || b.ClientEmail == "" {
			return nil
		}
		msg, err := mail.Compose(b.ClientEmail, mail.Content{
			Subject:  fmt.Sprintf("Horário liberado: %s em %s às %s", b.ServiceName, brfmt.Date(b.Date), b.Time),
			Greeting: fmt.Sprintf("Olá, %s!", b.ClientName),
			Paragraphs: []string{fmt.Sprintf("O sinal de %s não foi recebido até %s, então o horário abaixo foi liberado e o agendamento não foi confirmado.",
				brfmt.Money(b.Deposit.AmountCents), brfmt.DayTime(b.Deposit.ExpiresAt.In(st.Loc))),
				"Se você já pagou, fale com " + st.Name + " para combinar a devolução ou um novo horário."},
			Details: b.details(),
			Footer:  "Para marcar outro horário, use a página de agendamento de " + st.Name + ".",
		})
		if err != nil {
			return err
		}
		return s.Mailer.QueueToClient(ctx, tx, about(p.OwnerID, p.AppointmentID), msg)
	})
}

// depositMail is the client's e-mail asking for the deposit: what it holds,
// the amount, who receives it, the deadline, the "Pix Copia e Cola" text
// and the QR code as an image in the body.
func depositMail(b booked, baseURL string) (mail.Message, error) {
	d := b.Deposit
	deadline := brfmt.DayTime(d.ExpiresAt.In(b.Start.Location()))
	content := mail.Content{
		Subject:  fmt.Sprintf("Pague o sinal para confirmar: %s em %s às %s", b.ServiceName, brfmt.Date(b.Date), b.Time),
		Greeting: fmt.Sprintf("Olá, %s!", b.ClientName),
		Paragraphs: []string{
			fmt.Sprintf("Seu horário com %s está reservado, aguardando o sinal de %s via Pix até %s. Sem o pagamento até lá, o horário é liberado.",
				b.OwnerName, brfmt.Money(d.AmountCents), deadline),
			"Pague com o QR Code abaixo no app do seu banco, ou copie este código (Pix Copia e Cola):",
			d.CopyPaste,
		},
		Details: append(b.details(), mail.Detail{Label: "Sinal", Value: brfmt.Money(d.AmountCents)}, mail.Detail{Label: "Recebedor", Value: d.Receiver},
			mail.Detail{Label: "Pagar até", Value: deadline}),
		Button: &mail.Link{Label: "Ver o agendamento", URL: baseURL + "/cancel/" + b.CancelToken},
		Footer: "Depois do pagamento, " + b.OwnerName + " confirma o agendamento e você recebe a confirmação por e-mail. " +
			"Se você não fez este agendamento, pode ignorar este e-mail.",
	}
	// The QR code shows in the body (an inline part the HTML names by its
	// Content-ID), where a phone's mail app shows it, not only as a file.
	png, err := pix.PNG(d.CopyPaste, 320)
	if err != nil {
		content.Paragraphs[1] = "Copie este código no app do seu banco (Pix Copia e Cola):"
	} else {
		content.Image = &mail.Image{ContentID: pixQRCodeID, Alt: "QR Code Pix do sinal de " + brfmt.Money(d.AmountCents), Width: 240}
	}
	msg, err := mail.Compose(b.ClientEmail, content)
	if err != nil {
		return msg, err
	}
	if content.Image != nil {
		msg.Inline = []mail.Attachment{{Name: "pix-qrcode.png", ContentType: "image/png", Data: png, ContentID: pixQRCodeID}}
	}
	return msg, nil
}

// pixQRCodeID is the Content-ID of the Pix e-mail's QR code.
const pixQRCodeID = "pix-qrcode@agendei"

// depositView is an appointment's deposit for its client's pages (nil:
// none). It only reads: a charge not made yet is the charge job's to make
// (or the client's tap, ChargeAgain), never a page view's — a link scanner
// opening the link would create a charge at the provider.
func (s *Service) depositView(ctx context.Context, id string) (*DepositView, error) {
	d, err := deposits.OfAppointment(ctx, s.DB, id)
	if err != nil || d == nil {
		return nil, err
	}
	return &DepositView{AmountCents: d.AmountCents, State: d.State, ExpiresAt: d.ExpiresAt, CopyPaste: d.CopyPaste, Receiver: d.Receiver}, nil
}

// ChargeAgain is the client's "Gerar o código Pix" on their private page:
// a pending deposit whose charge failed at booking is charged again; one
// that has its Pix, or none pending, is left as it is. It answers the page
// as Lookup does.
func (s *Service) ChargeAgain(ctx context.Context, token string) (*Cancellation, error) {
	id, _, _, _, c, err := s.byToken(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	d, err := deposits.OfAppointment(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	if d != nil && d.State == deposits.Pending && d.CopyPaste == "" && Active(c.Status) {
		if err := s.chargePending(ctx, deposits.ExpireJobPayload{OwnerID: d.OwnerID(), AppointmentID: id}); err != nil {
			httpx.Logger(ctx).Error("deposit charge failed again", "appointment", id, "err", err)
			return nil, errChargeFailed
		}
	}
	c.Deposit, err = s.depositView(ctx, id)
	return c, err
}

var errChargeFailed = httpx.NewError(http.StatusServiceUnavailable, "charge_failed",
	"Não foi possível gerar o código Pix agora. Tente novamente em instantes.")

func (h *Handlers) chargeAgain(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleCancelIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	c, err := h.Svc.ChargeAgain(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, c, err)
}

// DepositQR is the QR code (PNG) of the pending deposit of the appointment
// behind a client's private token.
func (s *Service) DepositQR(ctx context.Context, token string) ([]byte, error) {
	id, err := s.tokenAppointment(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	d, err := deposits.OfAppointment(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	if d == nil || d.CopyPaste == "" || d.State != deposits.Pending {
		return nil, deposits.ErrNotFound
	}
	return pix.PNG(d.CopyPaste, 320)
}

func (h *Handlers) depositQR(w http.ResponseWriter, r *http.Request) error {
	png, err := h.Svc.DepositQR(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	_, _ = w.Write(png)
	return nil
}

package booking

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// booked is what the e-mails and notifications say about an appointment.
type booked struct {
	*Booked
	ClientName, ClientEmail, ClientPhone string
	OwnerID, OwnerName, OwnerEmail       string
	Start                                time.Time // in the owner's zone
	// Sequence is the invite's revision; Moved says the e-mail is about a
	// reschedule of an appointment the client already has.
	Sequence int
	Moved    bool
}

func (b booked) details() []mail.Detail {
	return append([]mail.Detail{
		{Label: "Profissional", Value: b.ProfessionalName},
		{Label: "Serviço", Value: b.ServiceName},
		{Label: "Data", Value: brfmt.LongDate(b.Date)},
		{Label: "Horário", Value: b.Time},
		{Label: "Duração", Value: fmt.Sprintf("%d minutos", b.Duration)},
		{Label: "Valor", Value: brfmt.Money(b.PriceCents)},
	}, b.placeDetail()...)
}

// afterBooking records everything a new booking causes, in its transaction:
// the owner's notification, the client's confirmation (with an .ics invite
// and the private cancel link), the owner's e-mail and the reminder job.
func (s *Service) afterBooking(ctx context.Context, tx *db.Tx, b booked) error {
	now := s.Clock.Now()
	desc := fmt.Sprintf("%s agendou %s com %s em %s às %s.", b.ClientName, b.ServiceName, b.ProfessionalName, brfmt.Date(b.Date), b.Time)
	title, says := "Novo agendamento", "Você recebeu um novo agendamento pela sua página."
	if b.Deposit != nil {
		// Aguardando sinal: the client's confirmation and reminders wait for
		// the payment (ConfirmDeposit); the Pix goes once charged (askForDeposit).
		title = "Novo agendamento aguardando sinal"
		desc += fmt.Sprintf(" Aguardando o sinal de %s até %s.", brfmt.Money(b.Deposit.AmountCents), brfmt.DayTime(b.Deposit.ExpiresAt.In(b.Start.Location())))
		says = "Você recebeu um novo agendamento pela sua página. Ele fica reservado aguardando o sinal via Pix: quando o pagamento cair, toque em \"Sinal recebido\" no agendamento."
	}
	if err := s.Notes.Create(ctx, tx, b.OwnerID, notifications.Appointment, title, desc, b.ID); err != nil {
		return err
	}
	if b.Deposit != nil {
		if s.Mailer == nil {
			return nil
		}
		return s.ownerMail(ctx, tx, b, title, says)
	}
	if _, err := s.confirmByWhatsApp(ctx, tx, b); err != nil {
		return err
	}
	if s.Mailer == nil {
		return nil
	}
	if err := locate(ctx, tx, b); err != nil {
		return err
	}
	send, err := s.mayConfirm(ctx, tx, now, b)
	if err != nil {
		return err
	}
	if send {
		if err := s.confirmToClient(ctx, tx, now, b); err != nil {
			return err
		}
	} else if b.ClientEmail == "" && b.ClientPhone != "" && (s.WhatsApp != nil || s.Push != nil) {
		// A client who gave only a phone is reminded when WhatsApp can
		// carry it, or push (their browser may subscribe after booking).
		if err := s.remindLater(ctx, tx, now, b); err != nil {
			return err
		}
	}
	return s.ownerMail(ctx, tx, b, title, says)
}

// ownerMail is the owner's e-mail about a new booking.
func (s *Service) ownerMail(ctx context.Context, tx *db.Tx, b booked, title, says string) error {
	if err := locate(ctx, tx, b); err != nil {
		return err
	}
	owner, err := mail.Compose(b.OwnerEmail, mail.Content{
		Subject:    fmt.Sprintf("%s: %s — %s em %s às %s", title, b.ClientName, b.ServiceName, brfmt.Date(b.Date), b.Time),
		Greeting:   fmt.Sprintf("Olá, %s!", b.OwnerName),
		Paragraphs: []string{says},
		Details:    append(b.details(), mail.Detail{Label: "Cliente", Value: b.ClientName}, mail.Detail{Label: "Contato", Value: contact(b.ClientPhone, b.ClientEmail)}),
		Button:     &mail.Link{Label: "Abrir a agenda", URL: s.BaseURL + "/agenda"},
	})
	if err != nil {
		return err
	}
	return s.Mailer.QueueAbout(ctx, tx, about(b.OwnerID, b.ID), owner)
}

// about is whose a message or job about an appointment is: its owner's, and
// the appointment's client's (jobs.About), so that erasing the client drops it.
func about(ownerID, appointmentID string) jobs.About {
	return jobs.About{UserID: ownerID, AppointmentID: appointmentID}
}

// confirmByWhatsApp queues WhatsApp's confirmation of b (its time as it
// now stands) when a ConfirmationSender is plugged in and the client has a
// phone; the sender decides whether it can (connected, template approved)
// and may (its limits per recipient and per owner), as for every booking.
// It says whether a message was queued.
func (s *Service) confirmByWhatsApp(ctx context.Context, tx *db.Tx, b booked) (bool, error) {
	cs, ok := s.WhatsApp.(ConfirmationSender)
	if !ok || b.ClientPhone == "" {
		return false, nil
	}
	return cs.SendConfirmation(ctx, tx, b.OwnerID, b.ID, b.ClientPhone, b.Date+" "+b.Time)
}

// confirmToClient queues the client's confirmation, with the invite and the
// cancel link, and the reminder before the appointment.
func (s *Service) confirmToClient(ctx context.Context, tx *db.Tx, now time.Time, b booked) error {
	if err := locate(ctx, tx, b); err != nil {
		return err
	}
	links := append(b.placeLinks(), mail.Link{Label: "Adicionar ao Google Agenda", URL: GoogleCalendarURL(fmt.Sprintf("%s com %s", b.ServiceName, b.ProfessionalName),
		"Agendado pelo Agendei com "+b.OwnerName+".", b.Place.Text(), b.Start, time.Duration(b.Duration)*time.Minute)})
	// The owner's WhatsApp, by the one wa.me rule, when they show one.
	var whatsapp string
	if err := tx.QueryRowContext(ctx, `SELECT whatsapp FROM profiles WHERE id = ?`, b.OwnerID).Scan(&whatsapp); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if wa := brfmt.WhatsApp(whatsapp); wa != "" {
		links = append(links, mail.Link{Label: "Falar com " + b.OwnerName + " no WhatsApp", URL: wa})
	}
	subject, says := "Agendamento confirmado", fmt.Sprintf("Seu agendamento com %s está confirmado. O convite em anexo coloca o horário na sua agenda.", b.OwnerName)
	if b.Moved {
		subject, says = "Agendamento remarcado", fmt.Sprintf("Seu agendamento com %s foi remarcado para o horário abaixo. O convite em anexo atualiza o horário na sua agenda.", b.OwnerName)
	}
	msg, err := mail.Compose(b.ClientEmail, mail.Content{
		Subject:    fmt.Sprintf("%s: %s em %s às %s", subject, b.ServiceName, brfmt.Date(b.Date), b.Time),
		Greeting:   fmt.Sprintf("Olá, %s!", b.ClientName),
		Paragraphs: []string{says},
		Details:    b.details(),
		Links:      links,
		Button:     &mail.Link{Label: "Cancelar agendamento", URL: s.BaseURL + "/cancel/" + b.CancelToken},
		Footer: "Não pode comparecer? Use o botão acima para cancelar e liberar o horário. Este link é pessoal: não o compartilhe. " +
			"Se você não fez este agendamento, pode ignorar este e-mail.",
	})
	if err != nil {
		return err
	}
	inv, err := addressed(ctx, tx, clientInvite(b.ID, b.Start, b.Duration, b.ServiceName, b.ProfessionalName, b.OwnerName, b.Place.Text(), b.Sequence, now),
		b.OwnerID, b.OwnerName, b.ClientName, b.ClientEmail)
	if err != nil {
		return err
	}
	msg.Attachments = []mail.Attachment{{Name: "agendamento.ics", ContentType: inv.ContentType(), Data: ICS(inv)}}
	if err := s.Mailer.QueueToClient(ctx, tx, about(b.OwnerID, b.ID), msg); err != nil {
		return err
	}
	return s.remindLater(ctx, tx, now, b)
}

// Anyone can fill the public booking form with any e-mail address, so the
// confirmations it causes are limited: per recipient (a stranger's inbox
// cannot be flooded) and per owner (nor can an owner's page be used to mail
// many addresses). Over a limit the booking still stands and the owner is
// told as usual; only the client's confirmation and reminder are skipped.
var (
	confirmPerRecipient = ratelimit.Rule{Name: "mail:confirm:to", Max: 3, Window: time.Hour}
	confirmPerOwner     = ratelimit.Rule{Name: "mail:confirm:owner", Max: 60, Window: time.Hour}
)

// mayConfirm reports whether the client gets the confirmation e-mail, counting
// it in the booking's transaction (a booking rolled back counts nothing).
func (s *Service) mayConfirm(ctx context.Context, tx *db.Tx, now time.Time, b booked) (bool, error) {
	if b.ClientEmail == "" {
		return false, nil
	}
	for _, c := range []struct {
		rule ratelimit.Rule
		key  string
	}{{confirmPerRecipient, recipientKey(b.ClientEmail)}, {confirmPerOwner, b.OwnerID}} {
		ok, _, err := ratelimit.AllowTx(ctx, tx, now, c.rule, c.key)
		if err != nil {
			return false, err
		}
		if !ok {
			httpx.Logger(ctx).Warn("booking confirmation e-mail skipped: over the limit", "rule", c.rule.Name,
				"owner", b.OwnerID, "appointment", b.ID)
			return false, nil
		}
	}
	return true, nil
}

// recipientKey counts a mailbox's confirmations under its SHA-256: the
// limits' table holds no client's address (an erase could not find it
// there: the count is shared by every owner the address booked with).
func recipientKey(addr string) string {
	return auth.HashToken(mailboxKey(addr))
}

// mailboxKey is the mailbox an address reaches: case folded, without a
// "+tag" (which most providers deliver to the same inbox).
func mailboxKey(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	local, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return addr
	}
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	return local + "@" + domain
}

func contact(phone, email string) string {
	switch {
	case phone != "" && email != "":
		return phone + " · " + email
	case phone != "":
		return phone
	}
	return email
}

// Cancellation is what the client's private cancel page shows.
type Cancellation struct {
	OwnerName        string `json:"ownerName"`
	ProfessionalName string `json:"professionalName"`
	ServiceName      string `json:"serviceName"`
	Date             string `json:"date"`
	Time             string `json:"time"`
	Duration         int    `json:"duration"`
	// PriceCents is left out of the answer when the owner hides prices on
	// the public page (hidePrice, issue 43 §3): the client's private page
	// says "Valor informado no atendimento", as the booking form did.
	PriceCents int64 `json:"priceCents"`
	hidePrice  bool
	Status     string `json:"status"`
	// Cancellable: confirmed, not begun and not past the cancellation cutoff.
	Cancellable bool `json:"cancellable"`
	// CancelUntil is the last instant the link cancels (the start minus the
	// owner's cutoff); nil unless confirmed.
	CancelUntil *time.Time `json:"cancelUntil"`
	// Where the client may pick a new time: the owner's public page, the
	// same professional and service ("" when they no longer exist).
	Username       string `json:"username"`
	ProfessionalID string `json:"professionalId"`
	ServiceID      string `json:"serviceId"`
	// How the client reaches the practice (the public profile's WhatsApp and
	// contact e-mail; "" when unset): the page's help footer, and where it
	// sends a client whose time to cancel by the link has passed.
	OwnerWhatsapp     string `json:"ownerWhatsapp"`
	OwnerContactEmail string `json:"ownerContactEmail"`
	// Deposit is the booking's deposit (nil: none): while pending, the page
	// shows the Pix to pay, as the confirmation card did.
	Deposit       *DepositView `json:"deposit"`
	cutoffHours   int
	sequence      int
	clientEmail   string
	clientPhone   string
	before, after int       // the buffers it was booked with
	answer        string    // the client's answer (client_answer)
	starts        time.Time // its instant
}

// MarshalJSON leaves the price out when the owner hides prices.
func (c Cancellation) MarshalJSON() ([]byte, error) {
	type plain Cancellation
	out := struct {
		plain
		PriceCents *int64 `json:"priceCents,omitempty"`
	}{plain: plain(c)}
	if !c.hidePrice {
		out.PriceCents = &c.PriceCents
	}
	return json.Marshal(out)
}

var (
	errLink = httpx.NewError(http.StatusNotFound, "not_found", "Link de cancelamento inválido.")
	errPast = httpx.NewError(http.StatusConflict, "appointment_past", "Este agendamento já aconteceu e não pode mais ser cancelado.")
)

// errCutoff refuses a client's cancellation or move past the owner's
// cutoff, with the practice's contact in the answer itself: the client
// reads it where they tried, not only on the page's preview.
func errCutoff(c *Cancellation) *httpx.Error {
	contact := "Entre em contato com o profissional."
	var ways []string
	if c.OwnerWhatsapp != "" {
		ways = append(ways, "WhatsApp "+brfmt.PhoneText(c.OwnerWhatsapp))
	}
	if c.OwnerContactEmail != "" {
		ways = append(ways, "e-mail "+c.OwnerContactEmail)
	}
	if len(ways) > 0 {
		contact = fmt.Sprintf("Entre em contato com %s: %s.", c.OwnerName, strings.Join(ways, " ou "))
	}
	return httpx.NewError(http.StatusConflict, "cancel_cutoff", fmt.Sprintf(
		"O prazo para cancelar pelo link terminou: cancelamentos só até %d horas antes do horário. %s", c.cutoffHours, contact))
}

func (s *Service) byToken(ctx context.Context, q db.Querier, token string) (id, ownerID, ownerEmail, clientName string, c *Cancellation, err error) {
	if id, err = s.tokenAppointment(ctx, q, token); err != nil {
		return "", "", "", "", nil, err
	}
	return s.byID(ctx, q, id)
}

// byID is what the private page shows of an appointment, and whose it is.
func (s *Service) byID(ctx context.Context, q db.Querier, id string) (_, ownerID, ownerEmail, clientName string, c *Cancellation, err error) {
	c = &Cancellation{}
	var starts time.Time
	var pro, svc, username sql.NullString
	err = q.QueryRowContext(ctx, `SELECT a.user_id, u.email, a.client_name, p.name, a.professional_name, a.service_name, a.appointment_date, a.appointment_time,
		a.duration, a.price_cents, a.status, a.starts_at, p.cancel_cutoff_hours, a.professional_id, a.service_id, p.public_username, a.sequence, a.client_email,
		a.buffer_before, a.buffer_after, p.whatsapp, p.contact_email, a.client_answer, a.client_phone, p.hide_prices FROM appointments a JOIN profiles p ON p.id = a.user_id JOIN users u ON u.id = a.user_id WHERE a.id = ?`, id).Scan(
		&ownerID, &ownerEmail, &clientName, &c.OwnerName, &c.ProfessionalName, &c.ServiceName, &c.Date, &c.Time, &c.Duration, &c.PriceCents, &c.Status, &starts, &c.cutoffHours,
		&pro, &svc, &username, &c.sequence, &c.clientEmail, &c.before, &c.after, &c.OwnerWhatsapp, &c.OwnerContactEmail, &c.answer, &c.clientPhone, &c.hidePrice)
	c.ProfessionalID, c.ServiceID, c.Username = pro.String, svc.String, username.String
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", "", "", nil, errLink
	}
	if err != nil {
		return "", "", "", "", nil, err
	}
	c.starts = starts
	if Active(c.Status) {
		until := starts.Add(-time.Duration(c.cutoffHours) * time.Hour).UTC()
		c.CancelUntil = &until
		c.Cancellable = s.Clock.Now().Before(until)
	}
	return id, ownerID, ownerEmail, clientName, c, nil
}

// Lookup returns the appointment behind a cancel link.
// pastCutoff reports whether a confirmed (or awaiting) appointment has not begun but the
// owner's cutoff for the link has passed.
func (c *Cancellation) pastCutoff(now time.Time) bool {
	return Active(c.Status) && c.cutoffHours > 0 && c.CancelUntil.Add(time.Duration(c.cutoffHours)*time.Hour).After(now)
}

func (s *Service) Lookup(ctx context.Context, token string) (*Cancellation, error) {
	id, _, _, _, c, err := s.byToken(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	c.Deposit, err = s.depositView(ctx, id)
	return c, err
}

// Cancel cancels the appointment behind a cancel link: it frees the slot at
// once, tells the owner, and touches no other appointment.
func (s *Service) Cancel(ctx context.Context, token string) (*Cancellation, error) {
	var out *Cancellation
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		id, ownerID, _, _, _, err := s.byToken(ctx, tx, token)
		if err != nil {
			return err
		}
		// The owner's lock first (db.Tx.LockOwner), then the appointment
		// read again: the read above locked nothing.
		if err := tx.LockOwner(ctx, ownerID); err != nil {
			return err
		}
		id, ownerID, ownerEmail, clientName, c, err := s.byToken(ctx, tx, token)
		if err != nil {
			return err
		}
		out = c
		return s.cancelByClient(ctx, tx, id, ownerID, ownerEmail, clientName, c, ChannelLink)
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errLink // the account was deleted meanwhile
	}
	return out, err
}

// cancelByClient is the client's cancellation, from their private link or a
// one-tap answer: within the owner's cutoff it frees the slot, records the
// answer, tells the owner; a cancelled appointment is left as it is.
func (s *Service) cancelByClient(ctx context.Context, tx *db.Tx, id, ownerID, ownerEmail, clientName string, c *Cancellation, channel Channel) error {
	if c.Status == "cancelled" {
		return nil // already done: cancelling twice is fine
	}
	if !c.Cancellable {
		if c.pastCutoff(s.Clock.Now()) {
			return errCutoff(c)
		}
		return errPast
	}
	now := s.Clock.Now()
	// The cancellation is a revision of the event, as the owner's is
	// (TellCancelled): SEQUENCE goes up, so the downloaded cancellation
	// (ClientInvite) outranks the invite the calendar holds (RFC 5546).
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET status = 'cancelled', client_answer = ?, client_answer_at = ?, client_answer_channel = ?, updated_at = ?,
		sequence = sequence + 1 WHERE id = ?`, AnswerCancelled, now, string(channel), now, id); err != nil {
		return err
	}
	if err := deposits.Settle(ctx, tx, ownerID, id, "cancelled", deposits.ByClient, now); err != nil {
		return err
	}
	if err := freed.Tell(ctx, s.Queue, tx, freed.Appointment(ownerID, c.ProfessionalID, c.Date, c.Time, c.Duration, c.before, c.after, now)); err != nil {
		return err
	}
	c.Status, c.Cancellable, c.CancelUntil, c.answer = "cancelled", false, nil, AnswerCancelled
	desc := fmt.Sprintf("%s cancelou %s com %s em %s às %s.", clientName, c.ServiceName, c.ProfessionalName, brfmt.Date(c.Date), c.Time)
	if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Agendamento cancelado pelo cliente", desc, id); err != nil {
		return err
	}
	if s.Mailer == nil {
		return nil
	}
	// Where it would have happened, as the owner's e-mail of the booking said.
	where := booked{Booked: &Booked{ID: id}}
	if err := locate(ctx, tx, where); err != nil {
		return err
	}
	msg, err := mail.Compose(ownerEmail, mail.Content{
		Subject:    fmt.Sprintf("Agendamento cancelado: %s — %s em %s às %s", clientName, c.ServiceName, brfmt.Date(c.Date), c.Time),
		Paragraphs: []string{desc + " O horário voltou a ficar disponível na sua página."},
		Details:    where.placeDetail(),
		Button:     &mail.Link{Label: "Abrir a agenda", URL: s.BaseURL + "/agenda"},
	})
	if err != nil {
		return err
	}
	return s.Mailer.QueueAbout(ctx, tx, about(ownerID, id), msg)
}

// Reminders (issue 28, point 1): the owner's setting, not the server's — 0,
// 1 or 2 per appointment, each a lead before it (profiles.reminder_leads;
// an owner who never chose gets the server's AGENDEI_REMINDER_LEAD). Each
// is a job queued in the transaction that books or moves the appointment;
// changing the setting re-plans the queued ones (Replan). A reminder goes
// by WhatsApp when a ReminderSender is plugged in and can send it, and by
// e-mail otherwise, and carries the three one-tap answers.

package booking

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agendei/agendei/internal/deposits"
	"strconv"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/profiles"
)

const reminderJob = "booking.reminder"

// DefaultReminderLead is how long before an appointment the client is
// reminded when neither the owner nor the server chose.
const DefaultReminderLead = 24 * time.Hour

// ReminderSender sends a reminder by a channel other than e-mail — the
// WhatsApp Cloud API. SendReminder runs inside the reminder job's
// transaction (tx), so what it queues (an outbox row) exists exactly when
// the reminder is recorded as sent; it must not block on the network for
// long. It returns ErrNotAvailable (or an error wrapping it) when it cannot
// send this one — not connected, template not approved, no phone — and the
// reminder then goes by e-mail; any other error fails the job, which is
// retried with back-off.
type ReminderSender interface {
	SendReminder(ctx context.Context, tx *db.Tx, r Reminder) error
}

// ConfirmationSender is a ReminderSender that also sends a booking's
// confirmation (WhatsApp's, besides the e-mail with the invite), queued in
// the booking's transaction; it decides itself whether it can (connected,
// template approved, within its limits), and says whether it queued one.
type ConfirmationSender interface {
	SendConfirmation(ctx context.Context, tx *db.Tx, ownerID, appointmentID, clientPhone, at string) (bool, error)
}

// CancellationSender is a ReminderSender that also tells a client of the
// owner's cancellation (WhatsApp's notice, besides the e-mail with the
// calendar cancellation), queued in the cancellation's transaction; it
// says whether it queued one.
type CancellationSender interface {
	SendCancellation(ctx context.Context, tx *db.Tx, ownerID, appointmentID, clientPhone, at string) (bool, error)
}

// ErrNotAvailable is a ReminderSender's "not by me": the reminder goes by e-mail.
var ErrNotAvailable = errors.New("reminder channel not available")

// Reminder is one reminder of one appointment, as a sender needs it.
type Reminder struct {
	OwnerID       string
	AppointmentID string
	// N is which of the owner's reminders this is (1 or 2), and For the
	// appointment's local "YYYY-MM-DD HH:MM" it reminds of: with
	// AppointmentID, a key that is the same for every retry of this
	// reminder and different for each reminder and each new time.
	N   int
	For string
	// Start is the appointment's instant in the owner's zone.
	Start                         time.Time
	Date, Time                    string // local "YYYY-MM-DD", "HH:MM"
	ClientName                    string
	ClientPhone, ClientEmail      string
	OwnerName                     string
	ServiceName, ProfessionalName string
	// Place is where it happens (the address or the video-call link);
	// SessionLink the video-call link alone ("" in person).
	Place, SessionLink string
	// PageURL is the owner's public page, ClientLink a fresh private link
	// of the client's (filled only when the text asks for {link_cliente}).
	PageURL, ClientLink string
	// Text is the owner's WhatsApp reminder (profiles.Messages.Reminder)
	// with every placeholder filled, the links below included.
	Text string
	// Links are the one-tap answers, issued for ChannelWhatsApp.
	Links AnswerLinks
}

// Key is the reminder's idempotency key: the same for each retry of it.
func (r Reminder) Key() string {
	return r.AppointmentID + "/reminder/" + strconv.Itoa(r.N) + "/" + r.For
}

// reminderLeads are the owner's reminder leads, earliest first.
func (s *Service) reminderLeads(ctx context.Context, q db.Querier, ownerID string) ([]time.Duration, error) {
	var raw sql.NullString
	if err := q.QueryRowContext(ctx, `SELECT reminder_leads FROM profiles WHERE id = ?`, ownerID).Scan(&raw); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if !raw.Valid {
		lead := s.ReminderLead
		if lead <= 0 {
			lead = DefaultReminderLead
		}
		return []time.Duration{lead}, nil
	}
	minutes := profiles.ParseLeads(raw.String)
	out := make([]time.Duration, len(minutes))
	for i, m := range minutes {
		out[i] = time.Duration(m) * time.Minute
	}
	return out, nil
}

// remindLater queues the client's reminders of b, each a lead before the
// appointment (none whose moment has passed).
func (s *Service) remindLater(ctx context.Context, tx *db.Tx, now time.Time, b booked) error {
	leads, err := s.reminderLeads(ctx, tx, b.OwnerID)
	if err != nil {
		return err
	}
	return s.planReminders(ctx, tx, now, leads, b.OwnerID, b.ID, b.Start, b.Date+" "+b.Time)
}

func (s *Service) planReminders(ctx context.Context, tx *db.Tx, now time.Time, leads []time.Duration, ownerID, id string, start time.Time, at string) error {
	for i, lead := range leads {
		remind := start.Add(-lead)
		if !remind.After(now) {
			continue
		}
		// The job names the time it reminds of: after a reschedule, the
		// reminder of the old time finds the appointment moved and stays quiet.
		payload := map[string]any{"appointmentId": id, "for": at, "n": i + 1}
		if err := s.Queue.Enqueue(ctx, tx, about(ownerID, id), reminderJob, payload, remind, 8); err != nil {
			return err
		}
	}
	return nil
}

// Replan re-plans the owner's reminders after they changed their setting,
// in the transaction that saved it: the reminders still queued (not
// running) go, and every future confirmed appointment whose client is to be
// reminded (appointments.remind: not an unpaid hold, not an owner's
// appointment made without "notify") gets the new ones whose moment is
// still ahead. Reminders already
// sent stay sent.
func (s *Service) Replan(ctx context.Context, tx *db.Tx, ownerID string) error {
	now := s.Clock.Now()
	if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE user_id = ? AND kind = ? AND done_at IS NULL AND (locked_until IS NULL OR locked_until < ?)`,
		ownerID, reminderJob, now); err != nil {
		return err
	}
	leads, err := s.reminderLeads(ctx, tx, ownerID)
	if err != nil || len(leads) == 0 {
		return err
	}
	type appt struct {
		id, at string
		start  time.Time
	}
	var all []appt
	err = db.Each(ctx, tx, `SELECT id, appointment_date, appointment_time, starts_at FROM appointments
		WHERE user_id = ? AND status = 'confirmed' AND remind = TRUE AND starts_at > ? AND (client_email <> '' OR (client_phone <> '' AND ?))`,
		[]any{ownerID, now, s.WhatsApp != nil || s.Push != nil}, func(r *sql.Rows) error {
			var a appt
			var date, at string
			if err := r.Scan(&a.id, &date, &at, &a.start); err != nil {
				return err
			}
			a.at = date + " " + at
			all = append(all, a)
			return nil
		})
	if err != nil {
		return err
	}
	for _, a := range all {
		if err := s.planReminders(ctx, tx, now, leads, ownerID, a.id, a.start, a.at); err != nil {
			return err
		}
	}
	return nil
}

// RegisterJobs teaches the queue to send reminders. A reminder runs once —
// the job is claimed in the database — and not at all for a cancelled
// booking or one moved since.
func (s *Service) RegisterJobs() {
	s.Queue.Register(deposits.ExpireJob, s.expireDeposit)
	s.Queue.Register(deposits.ChargeJob, s.chargeLater)
	s.Queue.Register(reminderJob, func(ctx context.Context, payload []byte) error {
		var p struct {
			AppointmentID string `json:"appointmentId"`
			For           string `json:"for"` // "YYYY-MM-DD HH:MM"; absent in jobs queued before reschedules existed
			N             int    `json:"n"`   // absent in jobs queued before owners chose their reminders
		}
		if err := json.Unmarshal(payload, &p); err != nil {
			return err
		}
		if p.N == 0 {
			p.N = 1
		}
		return s.remind(ctx, "", p.AppointmentID, p.For, p.N, false, true)
	})
}

// EmailReminder sends reminder n of the owner's appointment, about its
// time at ("YYYY-MM-DD HH:MM"), by e-mail whatever the WhatsApp sender:
// the WhatsApp integration's fallback when a reminder it took fails for
// good (whatsapp.Fallback). Like the job, it is quiet for an appointment
// cancelled or moved since, another owner's, or a client without e-mail.
func (s *Service) EmailReminder(ctx context.Context, ownerID, appointmentID string, n int, at string) error {
	return s.remind(ctx, ownerID, appointmentID, at, n, true, false)
}

// remind sends a reminder; ownerID, when given, must own the appointment;
// emailOnly skips the WhatsApp sender. ownJob (the reminder job itself)
// marks the job done in the transaction that queues the message
// (jobs.Finish): a process killed after it commits leaves a finished job,
// never one that runs again and queues the message twice.
func (s *Service) remind(ctx context.Context, ownerID, id, at string, n int, emailOnly, ownJob bool) error {
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		if ownJob {
			if err := jobs.Finish(ctx, tx, s.Clock.Now()); err != nil {
				return err
			}
		}
		var a booked
		a.Booked = &Booked{ID: id}
		var status, waText, emailText string
		var username sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT a.user_id, p.name, a.client_name, a.client_email, a.client_phone, a.service_name, a.professional_name,
			a.appointment_date, a.appointment_time, a.duration, a.price_cents, a.status, a.starts_at, p.msg_reminder, p.msg_reminder_email, p.public_username
			FROM appointments a JOIN profiles p ON p.id = a.user_id WHERE a.id = ?`, id).Scan(
			&a.OwnerID, &a.OwnerName, &a.ClientName, &a.ClientEmail, &a.ClientPhone, &a.ServiceName, &a.ProfessionalName, &a.Date, &a.Time,
			&a.Duration, &a.PriceCents, &status, &a.Start, &waText, &emailText, &username)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (status != "confirmed" || (ownerID != "" && ownerID != a.OwnerID))) {
			return nil // deleted, cancelled or not the owner's: nothing to send
		}
		if err == nil && at != "" && at != a.Date+" "+a.Time {
			return nil // moved since: the reminders of the new time are queued
		}
		if err != nil {
			return err
		}
		// The owner's lock before anything of theirs is written (the job's
		// own row is not the owner's): db.Tx.LockOwner's order.
		if err := tx.LockOwner(ctx, a.OwnerID); errors.Is(err, db.ErrOwnerGone) {
			return nil
		} else if err != nil {
			return err
		}
		if err := locate(ctx, tx, a); err != nil {
			return err
		}
		r := Reminder{OwnerID: a.OwnerID, AppointmentID: id, N: n, For: a.Date + " " + a.Time, Start: a.Start, Date: a.Date, Time: a.Time,
			ClientName: a.ClientName, ClientPhone: a.ClientPhone, ClientEmail: a.ClientEmail, OwnerName: a.OwnerName,
			ServiceName: a.ServiceName, ProfessionalName: a.ProfessionalName, Place: a.Place.Text()}
		if a.Place.Online {
			r.SessionLink = a.Place.Link
		}
		if username.String != "" {
			r.PageURL = s.BaseURL + "/agende/" + username.String
		}
		waText, emailText = orDefault(waText, profiles.DefaultMessages.Reminder), orDefault(emailText, profiles.DefaultReminderEmail)
		if strings.Contains(waText+emailText, "{link_cliente}") {
			token, err := addLink(ctx, tx, a.OwnerID, id, s.Clock.Now())
			if err != nil {
				return err
			}
			r.ClientLink = s.BaseURL + "/cancel/" + token
		}
		return s.sendReminder(ctx, tx, a, r, waText, emailText, emailOnly)
	})
}

func orDefault(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

// sendReminder is the one send step of a reminder: by the WhatsApp sender
// when one is plugged in and can send it (the client has a phone), else by
// e-mail (when the client has an address), each with its channel's one-tap
// links, and besides by push to the client's subscribed browsers; the
// owner's bell says the channels really used.
func (s *Service) sendReminder(ctx context.Context, tx *db.Tx, a booked, r Reminder, waText, emailText string, emailOnly bool) error {
	by := ""
	if s.WhatsApp != nil && r.ClientPhone != "" && !emailOnly {
		links, err := s.NewAnswerLinks(ctx, tx, r.OwnerID, r.AppointmentID, ChannelWhatsApp)
		if err != nil {
			return err
		}
		r.Links, r.Text = links, fillReminder(waText, r, links)
		switch err := s.WhatsApp.SendReminder(ctx, tx, r); {
		case err == nil:
			by = "pelo WhatsApp"
		case !errors.Is(err, ErrNotAvailable):
			return err
		}
	}
	if by == "" && r.ClientEmail != "" && s.Mailer != nil {
		links, err := s.NewAnswerLinks(ctx, tx, r.OwnerID, r.AppointmentID, ChannelEmail)
		if err != nil {
			return err
		}
		msg, err := mail.Compose(r.ClientEmail, mail.Content{
			Subject:    fmt.Sprintf("Lembrete: %s em %s às %s", r.ServiceName, brfmt.Date(r.Date), r.Time),
			Greeting:   fmt.Sprintf("Olá, %s!", r.ClientName),
			Paragraphs: strings.Split(fillReminder(emailText, r, links), "\n"),
			Buttons: []mail.Link{{Label: "Confirmar presença", URL: links.Confirm}, {Label: "Preciso remarcar", URL: links.Reschedule},
				{Label: "Cancelar", URL: links.Cancel}},
			Details: a.details(),
			Links:   a.placeLinks(),
			Footer:  "Estes botões são pessoais: não encaminhe este e-mail. Cancelamentos e remarcações pelo link valem até o prazo da clínica.",
		})
		if err != nil {
			return err
		}
		if err := s.Mailer.QueueToClient(ctx, tx, about(r.OwnerID, r.AppointmentID), msg); err != nil {
			return err
		}
		by = "por e-mail"
	}
	// Push goes besides (it is free and may not be seen); the e-mail that
	// stands in for a WhatsApp message that failed does not push again.
	if !emailOnly {
		pushed, err := s.pushReminder(ctx, tx, r)
		if err != nil {
			return err
		}
		if pushed && by != "" {
			by += " e por notificação no celular"
		} else if pushed {
			by = "por notificação no celular"
		}
	}
	if by == "" {
		return nil // no way to reach them
	}
	return s.Notes.Create(ctx, tx, r.OwnerID, notifications.Reminder, "Lembrete enviado",
		fmt.Sprintf("%s foi lembrado(a) %s de %s em %s às %s.", r.ClientName, by, r.ServiceName, brfmt.Date(r.Date), r.Time), r.AppointmentID)
}

// fillReminder fills a reminder text's placeholders (profiles.Placeholders)
// as the web app fills the owner's wa.me messages (lib/whatsapp.ts
// fillMessage): {nome} the first name, {data} the long date.
func fillReminder(text string, r Reminder, links AnswerLinks) string {
	first, _, _ := strings.Cut(strings.TrimSpace(r.ClientName), " ")
	return strings.NewReplacer("{nome}", first, "{data}", brfmt.LongDate(r.Date), "{hora}", r.Time, "{servico}", r.ServiceName,
		"{profissional}", r.ProfessionalName, "{endereco}", r.Place, "{link_sessao}", r.SessionLink, "{link}", r.PageURL, "{link_cliente}", r.ClientLink,
		"{link_confirmar}", links.Confirm, "{link_remarcar}", links.Reschedule, "{link_cancelar}", links.Cancel).Replace(text)
}

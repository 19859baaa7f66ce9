// Web push (issue 41, point 4): reminders, their one-tap answers and the
// notices of a cancellation or a move also go to the client's own phone
// when their browser subscribed — besides e-mail and WhatsApp, never
// instead: push costs nothing and may not be seen.

package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
)

// ChannelPush is a push notification's action or the page it opened.
const ChannelPush Channel = "push"

// PushSender sends notifications to a client's subscribed browsers
// (internal/push, through the server's wiring).
type PushSender interface {
	// Reaches reports whether the client of the owner's appointment has a
	// browser subscribed.
	Reaches(ctx context.Context, q db.Querier, ownerID, appointmentID string) (bool, error)
	// Notify queues the note to each of the client's browsers that has not
	// had it (its Key) in tx — the outbox — and says whether any was queued.
	Notify(ctx context.Context, tx *db.Tx, n PushNote) (bool, error)
}

// PushNote is one notification about an appointment.
type PushNote struct {
	OwnerID, AppointmentID string
	// Kind: reminder, cancelled, moved; Key the message's idempotency key,
	// the one e-mail and WhatsApp use for it.
	Kind, Key string
	// For is the appointment's local "YYYY-MM-DD HH:MM" it is about: a
	// send that finds it moved since stays quiet.
	For         string
	Title, Body string
	// URL is opened by a tap on the notification; Confirm and Cancel are
	// the one-tap answer links of its actions ("" for none).
	URL, Confirm, Cancel string
	// Until is when it is no use any more (the appointment's start).
	Until time.Time
}

// TokenAppointment is the owner and id of the appointment a client's
// private token opens (push.Tokens): 404 for an unknown or expired one.
func (s *Service) TokenAppointment(ctx context.Context, token string) (ownerID, appointmentID string, err error) {
	id, err := s.tokenAppointment(ctx, s.DB, token)
	if err != nil {
		return "", "", err
	}
	err = s.DB.QueryRowContext(ctx, `SELECT user_id FROM appointments WHERE id = ?`, id).Scan(&ownerID)
	if err != nil {
		return "", "", errLink
	}
	return ownerID, id, nil
}

// pushReminder sends the reminder to the client's browsers, with its own
// answer links (ChannelPush): "Confirmar" and "Cancelar" as the
// notification's actions, the page of "Preciso remarcar" (which shows the
// appointment) on a tap. It says whether it queued one.
func (s *Service) pushReminder(ctx context.Context, tx *db.Tx, r Reminder) (bool, error) {
	if s.Push == nil {
		return false, nil
	}
	if ok, err := s.Push.Reaches(ctx, tx, r.OwnerID, r.AppointmentID); err != nil || !ok {
		return false, err
	}
	links, err := s.NewAnswerLinks(ctx, tx, r.OwnerID, r.AppointmentID, ChannelPush)
	if err != nil {
		return false, err
	}
	return s.Push.Notify(ctx, tx, PushNote{OwnerID: r.OwnerID, AppointmentID: r.AppointmentID, Kind: "reminder", Key: r.Key(), For: r.For,
		Title: fmt.Sprintf("Lembrete: %s %s às %s", r.ServiceName, dayWords(s.Clock.Now(), r.Start, r.Date), r.Time),
		Body:  fmt.Sprintf("%s, com %s. Confirma sua presença?", r.OwnerName, r.ProfessionalName),
		URL:   links.Reschedule, Confirm: links.Confirm, Cancel: links.Cancel, Until: r.Start})
}

// pushNotice tells the client's browsers that the owner cancelled or moved
// the appointment (kind "cancelled" or "moved"), keyed as its e-mail is
// (the appointment, the notice, the time it is about). link is the client's
// private page, opened on a tap ("" for none).
func (s *Service) pushNotice(ctx context.Context, tx *db.Tx, b booked, kind, link string) (bool, error) {
	if s.Push == nil {
		return false, nil
	}
	if ok, err := s.Push.Reaches(ctx, tx, b.OwnerID, b.ID); err != nil || !ok {
		return false, err
	}
	at := b.Date + " " + b.Time
	n := PushNote{OwnerID: b.OwnerID, AppointmentID: b.ID, Kind: kind, Key: b.ID + "/" + kind + "/" + at, For: at, URL: link, Until: b.Start}
	when := fmt.Sprintf("%s em %s às %s", b.ServiceName, brfmt.Date(b.Date), b.Time)
	if kind == "cancelled" {
		n.Title, n.Body = "Agendamento cancelado", fmt.Sprintf("%s cancelou %s.", b.OwnerName, when)
		n.Until = time.Time{} // a day: the news matters after the time too
	} else {
		n.Title, n.Body = "Agendamento remarcado", fmt.Sprintf("%s remarcou seu horário: %s, com %s.", b.OwnerName, when, b.ProfessionalName)
	}
	return s.Push.Notify(ctx, tx, n)
}

// dayWords says an appointment's day as a notification does: "hoje",
// "amanhã" or the date.
func dayWords(now, start time.Time, date string) string {
	today := now.In(start.Location()).Format("2006-01-02")
	switch {
	case date == today:
		return "hoje"
	case date == now.In(start.Location()).AddDate(0, 0, 1).Format("2006-01-02"):
		return "amanhã"
	}
	return "em " + brfmt.Date(date)
}

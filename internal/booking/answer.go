// The client's answer to a reminder (issue 28, point 1): confirm, ask to
// move, or cancel, in one tap — from a reminder e-mail's buttons, a link in
// a WhatsApp message or a WhatsApp button reply. It lives in booking, not a
// package of its own, because a cancellation is the client's cancellation
// (cancelByClient, the private link's cutoff) and a request to move opens
// the private link's reschedule (addLink, ClientReschedule through Hold):
// both are booking's, and the reminder job that carries the answers is too.

package booking

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// Action is what a client answers about an appointment.
type Action string

// The three one-tap actions.
const (
	ActionConfirm    Action = "confirm"    // "Confirmar presença"
	ActionReschedule Action = "reschedule" // "Preciso remarcar"
	ActionCancel     Action = "cancel"     // "Cancelar"
)

// Channel is where an answer came from.
type Channel string

// The channels an answer arrives by.
const (
	ChannelEmail    Channel = "email"    // a reminder e-mail's button
	ChannelWhatsApp Channel = "whatsapp" // a WhatsApp message: a link in it or a button reply
	ChannelLink     Channel = "link"     // the client's private page (/cancel/{token})
)

// The answers an appointment records (appointments.client_answer); "" is
// "sem resposta".
const (
	AnswerNone       = ""
	AnswerConfirmed  = "confirmed"  // "confirmado pelo cliente"
	AnswerReschedule = "reschedule" // "pediu para remarcar"
	AnswerCancelled  = "cancelled"  // "cancelado pelo cliente"
)

// answerOf is the answer an action records.
var answerOf = map[Action]string{ActionConfirm: AnswerConfirmed, ActionReschedule: AnswerReschedule, ActionCancel: AnswerCancelled}

// ValidAction reports whether a is one of the three actions.
func ValidAction(a Action) bool { _, ok := answerOf[a]; return ok }

// AnswerResult is what an answer did, for the page or the WhatsApp reply
// that tells the client.
type AnswerResult struct {
	Action Action `json:"action"`
	// Answer is the appointment's answer now (AnswerConfirmed, …).
	Answer string `json:"answer"`
	// Status is the appointment's status now ("confirmed", "cancelled", …).
	Status string `json:"status"`
	// Already: the same answer had been given before; nothing changed.
	Already bool `json:"already"`
	// Moved: the appointment moved after the message this link came in; the
	// link answers nothing (appointment_moved), Date and Time are the new ones.
	Moved bool `json:"moved"`
	// PastCutoff: the owner's cutoff for cancelling and moving by link has
	// passed; the client is to talk to the practice (Contact). A request to
	// move is still recorded then; a cancellation is refused.
	PastCutoff bool `json:"pastCutoff"`
	// RescheduleURL is the client's private page opened on "Remarcar" (a
	// fresh private link), for ActionReschedule before the cutoff.
	RescheduleURL string `json:"rescheduleUrl,omitempty"`
	// What it is about, to say it back.
	OwnerName        string     `json:"ownerName"`
	ServiceName      string     `json:"serviceName"`
	ProfessionalName string     `json:"professionalName"`
	Date             string     `json:"date"`
	Time             string     `json:"time"`
	CancelUntil      *time.Time `json:"cancelUntil"`
	// How to reach the practice (its public WhatsApp and contact e-mail).
	OwnerWhatsapp     string `json:"ownerWhatsapp"`
	OwnerContactEmail string `json:"ownerContactEmail"`
}

var (
	errAnswerMissing   = httpx.NewError(http.StatusNotFound, "not_found", "Agendamento não encontrado.")
	errAnswerAction    = httpx.Validation("Resposta inválida: use confirm, reschedule ou cancel.")
	errAnswerEnded     = httpx.NewError(http.StatusGone, "appointment_ended", "Este agendamento já terminou: a resposta não vale mais.")
	errAnswerCancelled = httpx.NewError(http.StatusConflict, "appointment_cancelled", "Este agendamento foi cancelado. Para marcar outro horário, fale com a clínica.")
	errAnswerMoved     = httpx.NewError(http.StatusConflict, "appointment_moved", "Este agendamento mudou de horário depois desta mensagem, e este link não vale para o novo horário. Use a mensagem mais recente ou fale com a clínica.")
)

// rescheduleLinksPerAppointment bounds the private links "Preciso remarcar"
// issues for one appointment (each tap gives a fresh one).
var rescheduleLinksPerAppointment = ratelimit.Rule{Name: "answer:reschedule-link", Max: 20, Window: time.Hour}

// Answer applies a client's answer to the owner's appointment: the one
// entry point of the one-tap links, the private page and WhatsApp button
// replies.
//
//   - ActionConfirm records "confirmado pelo cliente".
//   - ActionReschedule records "pediu para remarcar" and, before the owner's
//     cutoff, hands back a fresh private link opened on its reschedule
//     (RescheduleURL); after the cutoff, PastCutoff and the practice's contact.
//   - ActionCancel cancels through the client's own cancellation (the
//     private link's cutoff and effects); after the cutoff it is refused
//     (409 cancel_cutoff) with the result still telling the practice's contact.
//
// It is idempotent: the same answer again changes nothing and says Already.
// Another owner's appointment, or none, is 404; an appointment that has
// ended (or was completed / a no-show) is 410 appointment_ended; confirming
// or moving a cancelled one is 409 appointment_cancelled. The answer is
// recorded on the appointment with its channel, and the owner's notification
// publishes the live "agenda" event (after commit). On a refusal the
// result is returned as well when the appointment was found.
func (s *Service) Answer(ctx context.Context, ownerID, appointmentID string, action Action, channel Channel) (*AnswerResult, error) {
	return s.answerAt(ctx, ownerID, appointmentID, action, channel, time.Time{})
}

// answerAt is Answer for a message about the appointment's start sentFor
// (zero: any): once the appointment has moved, the message's answer is
// refused (errAnswerMoved), since it was about another time.
func (s *Service) answerAt(ctx context.Context, ownerID, appointmentID string, action Action, channel Channel, sentFor time.Time) (*AnswerResult, error) {
	if !ValidAction(action) {
		return nil, errAnswerAction
	}
	var out *AnswerResult
	err := s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var err error
		out, err = s.answer(ctx, tx, ownerID, appointmentID, action, channel, sentFor)
		return err
	})
	if err != nil && out == nil {
		return nil, err
	}
	return out, err
}

func (s *Service) answer(ctx context.Context, tx *db.Tx, ownerID, id string, action Action, channel Channel, sentFor time.Time) (*AnswerResult, error) {
	_, owner, ownerEmail, clientName, c, err := s.byID(ctx, tx, id)
	if err == errLink || (err == nil && owner != ownerID) {
		return nil, errAnswerMissing
	}
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	r := &AnswerResult{Action: action, Answer: c.answer, Status: c.Status, OwnerName: c.OwnerName, ServiceName: c.ServiceName,
		ProfessionalName: c.ProfessionalName, Date: c.Date, Time: c.Time, CancelUntil: c.CancelUntil,
		OwnerWhatsapp: c.OwnerWhatsapp, OwnerContactEmail: c.OwnerContactEmail}
	if ended(now, c.starts, c.Duration) || c.Status == "completed" || c.Status == "no_show" {
		return r, errAnswerEnded
	}
	want := answerOf[action]
	if c.Status == "cancelled" {
		if action == ActionCancel {
			r.Already = true // by the client or the owner: it is cancelled
			return r, nil
		}
		return r, errAnswerCancelled
	}
	if movedSince(sentFor, c.starts) {
		r.Moved = true
		return r, errAnswerMoved
	}
	r.PastCutoff = !c.Cancellable && c.pastCutoff(now)
	if action == ActionCancel {
		if err := s.cancelByClient(ctx, tx, id, ownerID, ownerEmail, clientName, c, channel); err != nil {
			return r, err
		}
		r.Answer, r.Status, r.CancelUntil = AnswerCancelled, "cancelled", nil
		return r, nil
	}
	if action == ActionReschedule && c.Cancellable {
		ok, _, err := ratelimit.AllowTx(ctx, tx, now, rescheduleLinksPerAppointment, id)
		if err != nil {
			return r, err
		}
		if ok {
			token, err := addLink(ctx, tx, ownerID, id, now)
			if err != nil {
				return r, err
			}
			r.RescheduleURL = s.BaseURL + "/cancel/" + token + "?remarcar=1"
		}
	}
	if c.answer == want {
		r.Already = true
		return r, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET client_answer = ?, client_answer_at = ?, client_answer_channel = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
		want, now, string(channel), now, id, ownerID); err != nil {
		return r, err
	}
	r.Answer = want
	title, verb := "Presença confirmada", "confirmou presença em"
	if action == ActionReschedule {
		title, verb = "Cliente pediu para remarcar", "pediu para remarcar"
	}
	desc := fmt.Sprintf("%s %s %s com %s em %s às %s.", clientName, verb, c.ServiceName, c.ProfessionalName, brfmt.Date(c.Date), c.Time)
	return r, s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, title, desc, id)
}

// AnswerReply applies an answer (Answer) and says back to the client, in a
// sentence for a chat (a WhatsApp reply), what happened: done, already
// done, the link to pick a new time, or why not and how to reach the
// practice. A refusal by the rules is a reply, not an error; an error is
// only what should be tried again (the database).
func (s *Service) AnswerReply(ctx context.Context, ownerID, appointmentID string, action Action, channel Channel) (string, error) {
	r, err := s.Answer(ctx, ownerID, appointmentID, action, channel)
	var refusal *httpx.Error
	if err != nil && (r == nil || !errors.As(err, &refusal)) {
		if errors.As(err, &refusal) {
			return refusal.Message, nil // not found, or an unknown action
		}
		return "", err
	}
	contact := ""
	if r.OwnerWhatsapp != "" || r.OwnerContactEmail != "" {
		contact = " Fale com " + r.OwnerName + ": " + strings.Trim(r.OwnerWhatsapp+" "+r.OwnerContactEmail, " ") + "."
	}
	when := fmt.Sprintf("%s em %s às %s", r.ServiceName, brfmt.Date(r.Date), r.Time)
	switch {
	case err != nil && refusal.Code == "cancel_cutoff":
		return "O prazo para cancelar por aqui terminou." + contact, nil
	case err != nil:
		return refusal.Message + contact, nil
	case action == ActionConfirm && r.Already:
		return "Sua presença já estava confirmada: " + when + ".", nil
	case action == ActionConfirm:
		return "Presença confirmada: " + when + ". Até lá!", nil
	case action == ActionCancel && r.Already:
		return "Este agendamento já estava cancelado.", nil
	case action == ActionCancel:
		return "Agendamento cancelado: " + when + ". O horário foi liberado.", nil
	case r.RescheduleURL != "":
		return "Escolha o novo horário por este link: " + r.RescheduleURL, nil
	default:
		return r.OwnerName + " já sabe que você precisa remarcar " + when + ". O prazo para remarcar pelo link terminou." + contact, nil
	}
}

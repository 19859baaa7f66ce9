// Package notifications records what the owner should be told — a new
// booking, a client's cancellation, a reminder sent, system messages — and
// serves the notifications screen. Every change is announced to the owner's
// open tabs after it commits.
package notifications

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/events"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Types of notification (SPEC §3).
const (
	Appointment = "appointment"
	System      = "system"
	Client      = "client"
	Reminder    = "reminder"
)

// Notification is one notification.
type Notification struct {
	ID            string  `json:"id"`
	Type          string  `json:"type"`
	Title         string  `json:"title"`
	Description   string  `json:"description"`
	Read          bool    `json:"read"`
	AppointmentID *string `json:"appointmentId"`
	// ClientKey is the client it is about, while they have appointments
	// (their page's identifier); "" when no appointment has it.
	ClientKey string    `json:"clientKey"`
	CreatedAt time.Time `json:"createdAt"`
}

// Service stores notifications and announces changes.
type Service struct {
	DB     *db.DB
	Clock  clock.Clock
	Broker *events.Broker
}

// changed announces, after commit, that the owner's notifications changed
// (with the new one, if one was written) and any other kinds of data.
// origin is the device whose request made the change, if the owner's.
func (s *Service) changed(ctx context.Context, q db.Querier, userID, origin string, note *events.Note, kinds ...string) {
	s.changedFor(ctx, q, userID, origin, "", note, kinds...)
}

// changedFor is changed when the change is in one professional's agenda:
// the "agenda" event names them, so that only their tab of the team hears it.
func (s *Service) changedFor(ctx context.Context, q db.Querier, userID, origin, professional string, note *events.Note, kinds ...string) {
	db.AfterCommit(q, func() {
		for _, kind := range append([]string{"notifications"}, kinds...) {
			e := events.Event{UserID: userID, Kind: kind, Origin: origin}
			if kind == "notifications" {
				e.Note = note
			} else {
				e.Professional = professional
			}
			s.Broker.Publish(context.WithoutCancel(ctx), e)
		}
	})
}

// Create adds a notification for an owner, inside the caller's transaction
// when q is one. appointmentID may be empty; when given, the notification
// also keeps that appointment's client key, so that erasing the client
// finds it by reference (even once the appointment is gone). A
// notification about an appointment, a block or a client says the agenda
// changed: open tabs are also sent an "agenda" event, and read again what
// counts appointments.
//
// The owner's own actions — ctx is a request of the owner themself: they
// booked, moved, blocked, paid or erased — are recorded already read, so the
// unread badge counts what others did (a client, a job, a payment
// provider's webhook, the system); and the event names the device that
// acted, which then does not announce it while the owner's other devices do.
func (s *Service) Create(ctx context.Context, q db.Querier, userID, kind, title, description, appointmentID string) error {
	return s.create(ctx, q, userID, kind, title, description, appointmentID, "")
}

// AboutClient adds a notification about one client, not about one of their
// appointments (a correction of their contacts): it keeps their client
// key, by which erasing them finds it.
func (s *Service) AboutClient(ctx context.Context, q db.Querier, userID, clientKey, title, description string) error {
	return s.create(ctx, q, userID, Client, title, description, "", clientKey)
}

func (s *Service) create(ctx context.Context, q db.Querier, userID, kind, title, description, appointmentID, clientKey string) error {
	var appt, key any
	if appointmentID != "" {
		appt = appointmentID
	}
	if clientKey != "" {
		key = clientKey
	}
	// own: the owner themself acted. A professional signed in as themself
	// (issue 43 §0) acts in the owner's practice but is someone else to the
	// owner, whose badge counts it; their device is still the origin.
	own, origin := auth.UserID(ctx) == userID && auth.Professional(ctx) == "", ""
	if auth.UserID(ctx) == userID {
		origin = auth.SessionID(ctx) // the device that acted
	}
	id := uuid.NewString()
	_, err := q.ExecContext(ctx, `INSERT INTO notifications (id, user_id, type, title, description, read, appointment_id, client_key, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, COALESCE(?, (SELECT client_key FROM appointments WHERE id = ? AND user_id = ?)), ?)`,
		id, userID, kind, title, description, own, appt, key, appt, userID, s.Clock.Now())
	if err != nil {
		return err
	}
	note := &events.Note{ID: id, Title: title, Description: clip(description, 300)}
	if kind == Appointment || kind == Client {
		var professional string
		if appointmentID != "" {
			err := q.QueryRowContext(ctx, `SELECT COALESCE(professional_id, '') FROM appointments WHERE id = ? AND user_id = ?`, appointmentID, userID).Scan(&professional)
			if err != nil && !errors.Is(err, sql.ErrNoRows) { // gone (deleted with its notice): anyone's
				return err
			}
		}
		s.changedFor(ctx, q, userID, origin, professional, note, "agenda")
	} else {
		s.changed(ctx, q, userID, origin, note)
	}
	return nil
}

// clip keeps an event small (PostgreSQL's NOTIFY payload is at most 8000
// bytes): a toast needs the start of a description, the screen has the rest.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// List returns the owner's notifications, newest first (at most 200), and the unread count.
func (s *Service) List(ctx context.Context, userID string) ([]Notification, int, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT n.id, n.type, n.title, n.description, n.read, n.appointment_id, n.created_at,
		CASE WHEN EXISTS (SELECT 1 FROM appointments a WHERE a.user_id = n.user_id AND a.client_key = n.client_key) THEN n.client_key ELSE '' END
		FROM notifications n WHERE n.user_id = ? ORDER BY n.created_at DESC, n.id LIMIT 200`, userID)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Notification{}
	for rows.Next() {
		var n Notification
		var appt sql.NullString
		if err := rows.Scan(&n.ID, &n.Type, &n.Title, &n.Description, &n.Read, &appt, &n.CreatedAt, &n.ClientKey); err != nil {
			return nil, 0, err
		}
		if appt.Valid {
			n.AppointmentID = &appt.String
		}
		n.CreatedAt = n.CreatedAt.UTC()
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	var unread int
	err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM notifications WHERE user_id = ? AND read = FALSE`, userID).Scan(&unread)
	return out, unread, err
}

var errNotFound = httpx.NewError(http.StatusNotFound, "not_found", "Notificação não encontrada.")

func (s *Service) exec(ctx context.Context, userID, q string, args ...any) error {
	if err := db.ExecOwned(ctx, s.DB, errNotFound, q, args...); err != nil {
		return err
	}
	s.changed(ctx, s.DB, userID, auth.SessionID(ctx), nil)
	return nil
}

// Handlers serves /api/notifications and the live event stream.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
	hub  *hub
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	h.hub = newHub(h.Svc.Broker)
	mux.Handle("GET /api/notifications", h.Auth.RequireUser(httpx.Handle(h.list)))
	mux.Handle("PATCH /api/notifications/{id}", h.Auth.RequireUser(httpx.Handle(h.markRead)))
	mux.Handle("POST /api/notifications/read-all", h.Auth.RequireUser(httpx.Handle(h.readAll)))
	mux.Handle("DELETE /api/notifications/{id}", h.Auth.RequireUser(httpx.Handle(h.delete)))
	// The team's: a professional's tab hears their own agenda's changes
	// only (stream.deliver).
	mux.Handle("GET /api/events", h.Auth.RequireTeam(http.HandlerFunc(h.stream)))
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	list, unread, err := h.Svc.List(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, map[string]any{"notifications": list, "unread": unread}, err)
}

var success = map[string]bool{"success": true}

func (h *Handlers) markRead(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Read *bool `json:"read"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Read == nil || !*in.Read {
		return httpx.Validation("Só é possível marcar a notificação como lida.")
	}
	uid := auth.UserID(r.Context())
	err := h.Svc.exec(r.Context(), uid, `UPDATE notifications SET read = TRUE WHERE id = ? AND user_id = ?`, r.PathValue("id"), uid)
	return httpx.Respond(w, http.StatusOK, success, err)
}

func (h *Handlers) readAll(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	_, err := h.Svc.DB.ExecContext(r.Context(), `UPDATE notifications SET read = TRUE WHERE user_id = ? AND read = FALSE`, uid)
	if err == nil {
		h.Svc.changed(r.Context(), h.Svc.DB, uid, auth.SessionID(r.Context()), nil)
	}
	return httpx.Respond(w, http.StatusOK, success, err)
}

func (h *Handlers) delete(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	err := h.Svc.exec(r.Context(), uid, `DELETE FROM notifications WHERE id = ? AND user_id = ?`, r.PathValue("id"), uid)
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// stream sends the owner's events as Server-Sent Events: a "ready" event on
// connect, "notifications" on every change of them, "agenda" when
// appointments, blocks or clients changed, and a comment as heartbeat. Each
// event's data says whether this stream's own device made the change
// ("self") and, for a new notification, what it says ("note"): a device
// announces what others did, not what it did itself. The connection is
// handed to the hub (streams.go), which keeps it at a fraction of what a
// request costs.
func (h *Handlers) stream(w http.ResponseWriter, r *http.Request) {
	h.hub.serve(w, r, h.Auth.SessionCheck(r.Context()))
}

// Package agenda is the owner's view of their appointments: the dashboard's
// metrics and today's list, the agenda's range with filters and search, an
// appointment's detail and its status changes.
package agenda

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/slots"
)

// Appointment is one appointment as the owner sees it.
type Appointment struct {
	ID               string    `json:"id"`
	ProfessionalID   *string   `json:"professionalId"`
	ProfessionalName string    `json:"professionalName"`
	ServiceID        *string   `json:"serviceId"`
	ServiceName      string    `json:"serviceName"`
	Duration         int       `json:"duration"`
	PriceCents       int64     `json:"priceCents"`
	ClientName       string    `json:"clientName"`
	ClientEmail      string    `json:"clientEmail"`
	ClientPhone      string    `json:"clientPhone"`
	Notes            string    `json:"notes"`
	Date             string    `json:"date"`
	Time             string    `json:"time"`
	Status           string    `json:"status"`
	CreatedAt        time.Time `json:"createdAt"`
	SeriesID         *string   `json:"seriesId"` // the recurring series it belongs to, if any
	// Answer is the client's answer to a reminder: "" (sem resposta),
	// "confirmed", "reschedule" or "cancelled" (booking.Answer).
	Answer string `json:"answer"`
	// Notice, in the answer to a cancellation or a move that asked to tell
	// the client, is the channel that carried it: "email", "whatsapp",
	// "email_whatsapp", or "none" when no automatic message could leave
	// (the owner sends it by hand); absent when none was asked.
	Notice string `json:"notice,omitempty"`
}

const columns = `id, professional_id, professional_name, service_id, service_name, duration, price_cents, client_name, client_email, client_phone, notes,
	appointment_date, appointment_time, status, created_at, series_id, client_answer`

func scan(row interface{ Scan(...any) error }) (*Appointment, error) {
	var a Appointment
	var pro, svc, series sql.NullString
	if err := row.Scan(&a.ID, &pro, &a.ProfessionalName, &svc, &a.ServiceName, &a.Duration, &a.PriceCents, &a.ClientName, &a.ClientEmail,
		&a.ClientPhone, &a.Notes, &a.Date, &a.Time, &a.Status, &a.CreatedAt, &series, &a.Answer); err != nil {
		return nil, err
	}
	if series.Valid {
		a.SeriesID = &series.String
	}
	if pro.Valid {
		a.ProfessionalID = &pro.String
	}
	if svc.Valid {
		a.ServiceID = &svc.String
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return &a, nil
}

func list(ctx context.Context, q db.Querier, query string, args ...any) ([]Appointment, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Appointment{}
	for rows.Next() {
		a, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	return out, rows.Err()
}

// Service reads and changes the owner's appointments.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
	Notes *notifications.Service
	// Queue takes the times a cancellation frees to the waitlist (nil: not told).
	Queue *jobs.Queue
}

var (
	errNotFound    = httpx.NewError(http.StatusNotFound, "not_found", "Agendamento não encontrado.")
	errRange       = httpx.Validation("Informe um período válido (até 62 dias).")
	errStatus      = httpx.Validation("Status inválido.")
	errNoShowEarly = httpx.NewError(http.StatusConflict, "too_early",
		"Só é possível marcar 'Não compareceu' depois do horário do agendamento.")
	errCompleteEarly = httpx.NewError(http.StatusConflict, "too_early",
		"Só é possível marcar como concluído a partir do horário do agendamento.")
	// A hold awaiting its deposit is confirmed by "Sinal recebido" (which
	// marks the deposit paid and tells the client), never by a bare status.
	errAwaitingDeposit = httpx.NewError(http.StatusConflict, "awaiting_deposit",
		"Este agendamento aguarda o sinal. Para confirmá-lo, use \"Sinal recebido\" quando o Pix chegar.")
)

// MaxRows bounds one agenda read (a month of a busy clinic fits many times).
const MaxRows = 3000

// Filter is the agenda's query.
type Filter struct {
	From, To       string // YYYY-MM-DD, inclusive
	Status         string // "", confirmed, awaiting_deposit, cancelled, completed, no_show
	ProfessionalID string
	Search         string // client name or e-mail, ignoring case and accents
}

// scoped narrows a professional's own sign-in to their appointments.
func (f Filter) scoped(ctx context.Context) Filter {
	f.ProfessionalID = forProfessional(ctx, f.ProfessionalID)
	return f
}

// Range returns the owner's appointments in a date range, by date and time.
func (s *Service) Range(ctx context.Context, userID string, f Filter) ([]Appointment, bool, error) {
	from, err1 := slots.ParseDate(f.From)
	to, err2 := slots.ParseDate(f.To)
	if err1 != nil || err2 != nil || to.Before(from) || to.Sub(from) > 62*24*time.Hour {
		return nil, false, errRange
	}
	q := `SELECT ` + columns + ` FROM appointments WHERE user_id = ? AND appointment_date >= ? AND appointment_date <= ?`
	args := []any{userID, f.From, f.To}
	switch f.Status {
	case "":
	case "confirmed", "awaiting_deposit", "cancelled", "completed", "no_show":
		q += ` AND status = ?`
		args = append(args, f.Status)
	default:
		return nil, false, errStatus
	}
	if f.ProfessionalID != "" {
		q += ` AND professional_id = ?`
		args = append(args, f.ProfessionalID)
	}
	if key := booking.SearchKey(f.Search); key != "" {
		q += ` AND search_key LIKE ? ESCAPE '\'`
		args = append(args, booking.LikeContaining(key))
	}
	q += ` ORDER BY appointment_date, appointment_time, id LIMIT ?`
	args = append(args, MaxRows+1)
	out, err := list(ctx, s.DB, q, args...)
	if err != nil {
		return nil, false, err
	}
	if len(out) > MaxRows {
		return out[:MaxRows], true, nil
	}
	return out, false, nil
}

// Get returns one of the owner's appointments.
func (s *Service) Get(ctx context.Context, userID, id string) (*Appointment, error) {
	a, err := scan(s.DB.QueryRowContext(ctx, `SELECT `+columns+` FROM appointments WHERE id = ? AND user_id = ?`, id, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return a, err
}

// SetStatus confirms, completes or cancels an appointment, or marks it a
// no-show. Cancelling frees its time at once: slots only count the
// statuses that hold time. With following, a cancellation also cancels the
// confirmed later sessions of its series, in the same transaction. A change
// is told in the owner's notifications (which reach every open tab).
//
// A change that makes an appointment hold time again (a cancelled one
// confirmed or completed) goes through booking.Hold, like a booking: inside
// the transaction serialised per professional it is refused with 409 when
// another appointment of that professional now holds any of its time. Only
// the overlap is checked, not the booking rules: an owner may re-confirm an
// appointment that is past or outside today's opening hours, as long as it
// takes nobody's time. Completed and 'Não compareceu' are refused (409
// too_early) before the appointment's start: neither has happened yet.
func (s *Service) SetStatus(ctx context.Context, userID, id, status string, following bool) (*Appointment, error) {
	switch status {
	case "confirmed", "cancelled", "completed", "no_show":
	default:
		return nil, errStatus
	}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var a struct {
			pro, series                  sql.NullString
			date, at, was                string
			client, service, proName     string
			duration, before, after, and int
		}
		err := tx.QueryRowContext(ctx, `SELECT professional_id, series_id, appointment_date, appointment_time, status, client_name, service_name, professional_name,
			duration, buffer_before, buffer_after FROM appointments WHERE id = ? AND user_id = ?`, id, userID).
			Scan(&a.pro, &a.series, &a.date, &a.at, &a.was, &a.client, &a.service, &a.proName, &a.duration, &a.before, &a.after)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		if a.was == booking.StatusAwaitingDeposit && status == booking.StatusConfirmed {
			return errAwaitingDeposit
		}
		write := func() error {
			if _, err := tx.ExecContext(ctx, `UPDATE appointments SET status = ?, updated_at = ? WHERE id = ? AND user_id = ?`, status, s.Clock.Now(), id, userID); err != nil {
				return err
			}
			// Its deposit follows: cancelled before payment, to return, or retained.
			if err := deposits.Settle(ctx, tx, userID, id, status, deposits.ByOwner, s.Clock.Now()); err != nil {
				return err
			}
			// A cancelled appointment that held time frees it for the waitlist.
			var frees []freed.Time
			if status == "cancelled" && booking.Holds(a.was) {
				frees = append(frees, freed.Appointment(userID, a.pro.String, a.date, a.at, a.duration, a.before, a.after, s.Clock.Now()))
			}
			if following && status == "cancelled" && a.series.Valid {
				err := db.Each(ctx, tx, `UPDATE appointments SET status = 'cancelled', updated_at = ?
					WHERE user_id = ? AND series_id = ? AND appointment_date > ? AND status = 'confirmed'
					RETURNING COALESCE(professional_id, ''), appointment_date, appointment_time, duration, buffer_before, buffer_after`,
					[]any{s.Clock.Now(), userID, a.series.String, a.date}, func(r *sql.Rows) error {
						var pro, date, at string
						var duration, before, after int
						if err := r.Scan(&pro, &date, &at, &duration, &before, &after); err != nil {
							return err
						}
						a.and++
						frees = append(frees, freed.Appointment(userID, pro, date, at, duration, before, after, s.Clock.Now()))
						return nil
					})
				if err != nil {
					return err
				}
			}
			for _, f := range frees {
				if err := freed.Tell(ctx, s.Queue, tx, f); err != nil {
					return err
				}
			}
			if a.was == status && a.and == 0 {
				return nil // nothing changed, nothing to tell
			}
			title, desc := statusNote(status, a.client, a.service, a.proName, brfmt.Date(a.date), a.at, a.and)
			return s.Notes.Create(ctx, tx, userID, notifications.Appointment, title, desc, id)
		}
		if !booking.Holds(status) {
			return write() // freeing time never makes an overlap
		}
		day, err1 := slots.ParseDate(a.date)
		minute, err2 := slots.ParseHHMM(a.at)
		if err1 != nil || err2 != nil {
			return write() // a time no slot can read never collides (busy skips it too)
		}
		loc, err := profiles.Zone(ctx, tx, userID)
		if err != nil {
			return err
		}
		start := slots.At(day, minute, loc)
		if early := start > s.Clock.Now().Unix()/60; early && status == "no_show" {
			return errNoShowEarly // nobody has failed to come to what has not begun
		} else if early && status == "completed" && a.was != "completed" {
			return errCompleteEarly // nothing is done before it begins (one already so stays so)
		}
		lock := booking.Lock{OwnerID: userID, Professionals: []string{a.pro.String}, Date: day, Loc: loc, Except: []string{id}}
		return booking.Hold(ctx, tx, lock, func(busy booking.BusyDays) error {
			// The status as it stands now that the professional is locked: an
			// appointment that already holds its time takes nothing new.
			if err := tx.QueryRowContext(ctx, `SELECT status FROM appointments WHERE id = ?`, id).Scan(&a.was); err != nil {
				return err
			}
			if !booking.Holds(a.was) && slots.Collides(start, a.duration, a.before, a.after, busy.Near(a.pro.String, day)) {
				return errTaken(status)
			}
			return nil
		}, write)
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, userID, id)
}

// statusNote is the owner's notification of a status change: the title and
// what happened to whom ("and" more sessions of its series cancelled with it).
func statusNote(status, client, service, pro, date, at string, and int) (string, string) {
	what := fmt.Sprintf("%s: %s com %s em %s às %s", client, service, pro, date, at)
	switch status {
	case "confirmed":
		return "Agendamento confirmado", what + "."
	case "completed":
		return "Agendamento concluído", what + "."
	case "no_show":
		return "Cliente não compareceu", what + "."
	}
	if and > 0 {
		return "Sessões canceladas", fmt.Sprintf("%s, e as %d sessões seguintes da série.", what, and)
	}
	return "Agendamento cancelado", what + "."
}

func errTaken(status string) *httpx.Error {
	verb := map[string]string{"confirmed": "confirmar", "completed": "concluir", "no_show": "marcar como não compareceu"}[status]
	return httpx.NewError(http.StatusConflict, "slot_unavailable",
		"Não é possível "+verb+": o profissional já tem outro agendamento neste horário.")
}

// Metrics are the dashboard's four cards.
type Metrics struct {
	Total            int   `json:"total"`
	Confirmed        int   `json:"confirmed"`
	ConfirmationRate int   `json:"confirmationRate"` // percent, rounded
	RevenueCents     int64 `json:"revenueCents"`
	UniqueClients    int   `json:"uniqueClients"`
}

// Dashboard is the dashboard's data.
type Dashboard struct {
	Metrics Metrics       `json:"metrics"`
	Today   []Appointment `json:"today"`
	Date    string        `json:"date"` // the owner's today
	// Unanswered are tomorrow's confirmed appointments whose client has not
	// answered a reminder (issue 28): the owner may nudge them on WhatsApp.
	Unanswered []Appointment `json:"unanswered"`
}

func (s *Service) today(ctx context.Context, userID string) (time.Time, error) {
	loc, err := profiles.Zone(ctx, s.DB, userID)
	if err != nil {
		return time.Time{}, err
	}
	return s.Clock.Now().In(loc), nil
}

// E-mails are stored lowercased (auth.NormalizeEmail), so distinct e-mails
// are distinct clients.
//
// DashboardData computes the metrics over the spec's window — from 7 days
// ago on, including everything upcoming — without cancelled appointments,
// and today's list. A hold awaiting its deposit counts in the total but is
// not confirmed, and its price is no revenue until the deposit is paid.
func (s *Service) DashboardData(ctx context.Context, userID string) (*Dashboard, error) {
	now, err := s.today(ctx, userID)
	if err != nil {
		return nil, err
	}
	today := now.Format("2006-01-02")
	since := now.AddDate(0, 0, -7).Format("2006-01-02")
	var d Dashboard
	d.Date = today
	err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*),
		COALESCE(SUM(CASE WHEN status = 'confirmed' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN status NOT IN ('no_show', 'awaiting_deposit') THEN price_cents ELSE 0 END), 0),
		COUNT(DISTINCT CASE WHEN client_email <> '' THEN client_email END)
		FROM appointments WHERE user_id = ? AND appointment_date >= ? AND status <> 'cancelled'`, userID, since).
		Scan(&d.Metrics.Total, &d.Metrics.Confirmed, &d.Metrics.RevenueCents, &d.Metrics.UniqueClients)
	if err != nil {
		return nil, err
	}
	if d.Metrics.Total > 0 {
		d.Metrics.ConfirmationRate = (d.Metrics.Confirmed*100 + d.Metrics.Total/2) / d.Metrics.Total
	}
	d.Today, err = list(ctx, s.DB, `SELECT `+columns+` FROM appointments WHERE user_id = ? AND appointment_date = ? AND status <> 'cancelled'
		ORDER BY appointment_time, id`, userID, today)
	if err != nil {
		return nil, err
	}
	d.Unanswered, err = list(ctx, s.DB, `SELECT `+columns+` FROM appointments WHERE user_id = ? AND appointment_date = ? AND status = 'confirmed'
		AND client_answer = '' ORDER BY appointment_time, id`, userID, now.AddDate(0, 0, 1).Format("2006-01-02"))
	return &d, err
}

// Handlers serves the owner's appointment endpoints.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
	Memo *memo.Cache // nil: no cache
	// Booking writes the owner's own appointments through the same hold as
	// a client's booking.
	Booking *booking.Service
	BaseURL string // calendar feed addresses are written with it
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	h.registerDeposits(mux)
	h.registerPayments(mux)
	h.registerReceipts(mux)
	mux.Handle("GET /api/dashboard", h.Auth.RequireUser(h.Memo.Owner("dashboard", auth.UserID, httpx.Handle(h.dashboard))))
	// Not cached: who a reminder reaches also turns on WhatsApp's template
	// reviews, which are not the owner's data.
	mux.Handle("GET /api/reminders/reach", h.Auth.RequireUser(httpx.Handle(h.reach)))
	mux.Handle("GET /api/appointments", h.Auth.RequireTeam(h.Memo.Owner("appointments", auth.UserID, httpx.Handle(h.list))))
	mux.Handle("POST /api/appointments", h.Auth.RequireTeam(httpx.Handle(h.create)))
	mux.Handle("GET /api/clients/history", h.Auth.RequireTeam(h.Memo.Owner("client-history", auth.UserID, httpx.Handle(h.history))))
	mux.Handle("PUT /api/clients/contact", h.Auth.RequireUser(httpx.Handle(h.updateClient)))
	mux.Handle("POST /api/appointments/preview", h.Auth.RequireTeam(httpx.Handle(h.preview)))
	mux.Handle("GET /api/agenda/free-times", h.Auth.RequireTeam(httpx.Handle(h.freeTimes)))
	// Not through the answer cache: the grid is one pipelined read of its
	// appointments and blocks with its data version, where the cache would
	// add a round trip of its own to read that version first (grid.go).
	mux.Handle("GET /api/agenda/grid", h.Auth.RequireTeam(httpx.Handle(h.grid)))
	mux.Handle("GET /api/appointments/{id}", h.Auth.RequireTeam(httpx.Handle(h.get)))
	mux.Handle("PATCH /api/appointments/{id}", h.Auth.RequireTeam(httpx.Handle(h.setStatus)))
	mux.Handle("POST /api/appointments/{id}/reschedule", h.Auth.RequireTeam(httpx.Handle(h.reschedule)))
	mux.Handle("POST /api/appointments/{id}/tell-moved", h.Auth.RequireTeam(httpx.Handle(h.tellMoved)))
	mux.Handle("POST /api/appointments/{id}/client-link", h.Auth.RequireUser(httpx.Handle(h.clientLink)))
	mux.Handle("POST /api/appointments/{id}/answer-links", h.Auth.RequireUser(httpx.Handle(h.answerLinks)))
	mux.Handle("GET /api/calendar-feeds", h.Auth.RequireUser(httpx.Handle(h.listFeeds)))
	mux.Handle("POST /api/calendar-feeds", h.Auth.RequireUser(httpx.Handle(h.newFeed)))
	mux.Handle("PATCH /api/calendar-feeds/{id}", h.Auth.RequireUser(httpx.Handle(h.setFeedPhone)))
	mux.Handle("DELETE /api/calendar-feeds/{id}", h.Auth.RequireUser(httpx.Handle(h.deleteFeed)))
	mux.HandleFunc("GET /calendar/{file}", h.feed)
}

func (h *Handlers) dashboard(w http.ResponseWriter, r *http.Request) error {
	d, err := h.Svc.DashboardData(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, d, err)
}

func (h *Handlers) reach(w http.ResponseWriter, r *http.Request) error {
	reach, err := h.Booking.Reach(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, reach, err)
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	search, err := httpx.SearchText(r)
	if err != nil {
		return err
	}
	items, truncated, err := h.Svc.Range(r.Context(), auth.UserID(r.Context()), Filter{
		From: q.Get("from"), To: q.Get("to"), Status: q.Get("status"), ProfessionalID: q.Get("professional"), Search: search,
	}.scoped(r.Context()))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"appointments": items, "truncated": truncated})
	return nil
}

// maxCreateBody bounds an owner's appointment (the client's fields and notes).
const maxCreateBody = 16 << 10

func (h *Handlers) create(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxCreateBody)
	var in booking.OwnerInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	owner := auth.UserID(r.Context())
	if err := checkTarget(r.Context(), in.ProfessionalID); err != nil {
		return err
	}
	id, err := h.Booking.Create(r.Context(), owner, in)
	if err != nil {
		return err
	}
	a, err := h.Svc.Get(r.Context(), owner, id)
	return httpx.Respond(w, http.StatusCreated, a, err)
}

func (h *Handlers) preview(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxCreateBody)
	var in booking.OwnerInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := checkTarget(r.Context(), in.ProfessionalID); err != nil {
		return err
	}
	list, err := h.Booking.Preview(r.Context(), auth.UserID(r.Context()), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"occurrences": list})
	return nil
}

// freeTimes are the free start times "Novo agendamento" and "Remarcar"
// offer, from the same slot engine as the public page.
func (h *Handlers) freeTimes(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	times, err := h.Booking.OwnerTimes(r.Context(), auth.UserID(r.Context()), booking.OwnerTimesQuery{
		ProfessionalID: forProfessional(r.Context(), q.Get("professional")), ServiceID: q.Get("service"), Date: q.Get("date"), Appointment: q.Get("appointment"),
	})
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, map[string][]string{"times": times})
	return nil
}

func (h *Handlers) get(w http.ResponseWriter, r *http.Request) error {
	if err := h.Svc.ownAppointment(r.Context(), auth.UserID(r.Context()), r.PathValue("id")); err != nil {
		return err
	}
	a, err := h.Svc.Get(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	return httpx.Respond(w, http.StatusOK, a, err)
}

func (h *Handlers) setStatus(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Status       string `json:"status"`
		NotifyClient bool   `json:"notifyClient"` // with cancelled: e-mail the client, with a calendar cancellation
		Following    bool   `json:"following"`    // with cancelled: this and the following sessions of its series
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	owner := auth.UserID(r.Context())
	if err := h.Svc.ownAppointment(r.Context(), owner, r.PathValue("id")); err != nil {
		return err
	}
	a, err := h.Svc.SetStatus(r.Context(), owner, r.PathValue("id"), in.Status, in.Following)
	if err == nil && in.NotifyClient && in.Status == "cancelled" {
		// The cancellation stands whatever happens to its e-mail; the
		// answer says whether one left.
		channel, err := h.Booking.TellCancelled(r.Context(), owner, a.ID)
		if err != nil {
			httpx.Logger(r.Context()).Error("cancellation e-mail not queued", "appointment", a.ID, "err", err)
			channel = "none"
		}
		a.Notice = channel
	}
	return httpx.Respond(w, http.StatusOK, a, err)
}

// clientLink issues a fresh private link for the client (the owner's
// WhatsApp message with {link_cliente}); the client's older links keep working.
func (h *Handlers) clientLink(w http.ResponseWriter, r *http.Request) error {
	url, err := h.Booking.ClientLink(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusCreated, map[string]string{"url": url})
	return nil
}

// answerLinks issues the client's one-tap answer links (confirm, ask to
// move, cancel) for a WhatsApp message the owner sends by hand.
func (h *Handlers) answerLinks(w http.ResponseWriter, r *http.Request) error {
	links, err := h.Booking.OwnerAnswerLinks(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusCreated, links)
	return nil
}

func (h *Handlers) reschedule(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxCreateBody)
	var in booking.MoveInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	owner, id := auth.UserID(r.Context()), r.PathValue("id")
	if err := h.Svc.ownAppointment(r.Context(), owner, id); err != nil {
		return err
	}
	if err := checkTarget(r.Context(), in.ProfessionalID); err != nil {
		return err
	}
	channel, err := h.Booking.Reschedule(r.Context(), owner, id, in)
	if err != nil {
		return err
	}
	a, err := h.Svc.Get(r.Context(), owner, id)
	if err == nil {
		a.Notice = channel
	}
	return httpx.Respond(w, http.StatusOK, a, err)
}

// tellMoved tells the client where an appointment moved without a notice
// (a drag in the agenda) now stands, and answers the channel that carried it.
func (h *Handlers) tellMoved(w http.ResponseWriter, r *http.Request) error {
	if err := h.Svc.ownAppointment(r.Context(), auth.UserID(r.Context()), r.PathValue("id")); err != nil {
		return err
	}
	channel, err := h.Booking.TellMoved(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"channel": channel})
	return nil
}

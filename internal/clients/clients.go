// Package clients derives the owner's clients from their appointments: one
// client per phone, or per e-mail when there is no phone (SPEC §3), with
// what they attended and have scheduled, aggregated by the database.
package clients

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/profiles"
)

// Client is one derived client. Its numbers say what happened: attended
// appointments (completed, begun by now) and the revenue they realized,
// apart from what is scheduled (confirmed, still ahead); cancelled ones count
// in neither, and no-shows only as no-shows.
type Client struct {
	Identifier      string `json:"identifier"`
	Ref             string `json:"ref"` // the client page's opaque reference: an appointment of theirs (booking.ClientKeyOf)
	Name            string `json:"name"`
	Email           string `json:"email"`
	Phone           string `json:"phone"`
	AttendedCount   int    `json:"attendedCount"`
	RevenueCents    int64  `json:"revenueCents"` // of the attended appointments
	LastAttended    string `json:"lastAttended"` // date of the latest attended appointment, "" if none
	ScheduledCount  int    `json:"scheduledCount"`
	ScheduledCents  int64  `json:"scheduledCents"`
	NextAppointment string `json:"nextAppointment"` // date of the next scheduled appointment, "" if none
	NoShows         int    `json:"noShows"`         // appointments marked 'Não compareceu'
	// SPEC's export columns: the appointments not cancelled (any date and
	// outcome) and the date of the latest of them.
	BookedCount int    `json:"-"`
	LastBooked  string `json:"-"`
}

// Clients are grouped by the stored client key (phone, else e-mail) on a
// covering index, ordered by their latest appointment of any status (the
// most recently seen first); the window count is how many clients there are
// in all. For each client on the page, one index seek finds their latest
// appointment, whose name and contacts are the ones shown (the most recently
// booked one when two share the same date and time). The first %s narrows
// the clients (a search), the second takes the page's LIMIT and OFFSET,
// which must bound the grouped rows before the seeks run.
const aggregate = `SELECT k.client_key, k.attended, k.revenue, k.last_attended, k.scheduled, k.scheduled_cents, k.next, k.no_shows, k.booked, k.last_booked, k.total,
	(SELECT b.id FROM appointments b WHERE b.user_id = ? AND b.client_key = k.client_key
		ORDER BY b.appointment_date DESC, b.appointment_time DESC, b.created_at DESC LIMIT 1)
	FROM (SELECT client_key, MAX(appointment_date) AS last,
		SUM(CASE WHEN ` + booking.Attended + ` THEN 1 ELSE 0 END) AS attended,
		SUM(CASE WHEN ` + booking.Attended + ` THEN price_cents ELSE 0 END) AS revenue,
		COALESCE(MAX(CASE WHEN ` + booking.Attended + ` THEN appointment_date END), '') AS last_attended,
		SUM(CASE WHEN ` + booking.Scheduled + ` THEN 1 ELSE 0 END) AS scheduled,
		SUM(CASE WHEN ` + booking.Scheduled + ` THEN price_cents ELSE 0 END) AS scheduled_cents,
		COALESCE(MIN(CASE WHEN ` + booking.Scheduled + ` THEN appointment_date END), '') AS next,
		SUM(CASE WHEN status = 'no_show' THEN 1 ELSE 0 END) AS no_shows,
		SUM(CASE WHEN status <> 'cancelled' THEN 1 ELSE 0 END) AS booked,
		COALESCE(MAX(CASE WHEN status <> 'cancelled' THEN appointment_date END), '') AS last_booked, COUNT(*) OVER () AS total
		FROM appointments WHERE user_id = ?%s GROUP BY client_key
		ORDER BY MAX(appointment_date) DESC, client_key%s) k
	ORDER BY k.last DESC, k.client_key`

// contactBatch bounds the ids of one contacts query (well under either
// engine's limit on parameters).
const contactBatch = 500

// Service lists clients.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
	Notes *notifications.Service // an erasure is told to the owner
}

// match is the rule a typed search finds clients by, the agenda's: the
// name or e-mail (the stored search key: lower case, no accents) contains
// the typed text, or the stored phone contains its digits (three or more).
// Personal data is found by these stored keys, never in free text (notes).
// An empty q matches nothing (ok false).
func match(q string) (clause string, args []any, ok bool) {
	key := booking.SearchKey(q)
	if key == "" {
		return "", nil, false
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, q)
	clause, args = `search_key LIKE ? ESCAPE '\'`, []any{booking.LikeContaining(key)}
	if len(digits) >= 3 {
		clause, args = clause+` OR client_phone LIKE ? ESCAPE '\'`, append(args, booking.LikeContaining(digits))
	}
	return "(" + clause + ")", args, true
}

// List returns a page of clients (limit 0: all) and how many there are;
// with a search (q not blank), only the clients one of whose appointments
// matches it (match), with all their appointments counted. With
// professionalID (a professional's own sign-in, issue 43) it is the clients
// of their own appointments, counted over those alone.
func (s *Service) List(ctx context.Context, userID, professionalID, q string, limit, offset int) ([]Client, int, error) {
	loc, err := profiles.Zone(ctx, s.DB, userID)
	if err != nil {
		return nil, 0, err
	}
	now := booking.Now(s.Clock.Now().In(loc))
	narrow, page := "", ""
	args := []any{userID}
	for range 6 {
		args = append(args, now...)
	}
	args = append(args, userID)
	if professionalID != "" {
		narrow = ` AND professional_id = ?`
		args = append(args, professionalID)
	}
	clause, matchArgs, searching := match(q)
	if searching {
		narrow += ` AND client_key IN (SELECT client_key FROM appointments WHERE user_id = ? AND ` + clause + `)`
		args = append(append(args, userID), matchArgs...)
	}
	if limit > 0 {
		page = ` LIMIT ? OFFSET ?`
		args = append(args, limit, offset)
	}
	rows, err := s.DB.QueryContext(ctx, fmt.Sprintf(aggregate, narrow, page), args...)
	if err != nil {
		return nil, 0, err
	}
	out := []Client{}
	latest := map[string]int{} // appointment id -> client index
	total := -1
	for rows.Next() {
		var c Client
		var id string
		if err := rows.Scan(&c.Identifier, &c.AttendedCount, &c.RevenueCents, &c.LastAttended, &c.ScheduledCount, &c.ScheduledCents, &c.NextAppointment,
			&c.NoShows, &c.BookedCount, &c.LastBooked, &total, &id); err != nil {
			rows.Close()
			return nil, 0, err
		}
		latest[id] = len(out)
		c.Ref = id
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if total < 0 { // a page past the end carries no window count
		count, countArgs := `SELECT COUNT(DISTINCT client_key) FROM appointments WHERE user_id = ?`, []any{userID}
		if professionalID != "" {
			count, countArgs = count+` AND professional_id = ?`, append(countArgs, professionalID)
		}
		if searching {
			count, countArgs = count+` AND `+clause, append(countArgs, matchArgs...)
		}
		if err := s.DB.QueryRowContext(ctx, count, countArgs...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	if err := s.contacts(ctx, userID, out, latest); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// Match is a client found by Search: the name and contacts of their latest
// appointment.
type Match struct {
	Identifier string `json:"identifier"`
	Ref        string `json:"ref"` // the client page's opaque reference (booking.ClientKeyOf)
	Name       string `json:"name"`
	Email      string `json:"email"`
	Phone      string `json:"phone"`
}

// SearchLimit is how many clients a search returns at most.
const SearchLimit = 8

// Search finds the owner's clients whose name or e-mail contains q
// (ignoring case and accents) or whose phone contains q's digits (three or
// more), most recently seen first, for the agenda's type-ahead. Fewer than
// two characters find nothing.
//
// With professionalID (a professional's own sign-in), their clients only.
func (s *Service) Search(ctx context.Context, userID, professionalID, q string) ([]Match, error) {
	out := []Match{}
	clause, matchArgs, ok := match(q)
	if !ok || len([]rune(booking.SearchKey(q))) < 2 {
		return out, nil
	}
	// The latest appointments first, so each client's first row carries
	// their current contacts; a bounded scan keeps a busy owner's search fast.
	rows, err := s.DB.QueryContext(ctx, `SELECT client_key, id, client_name, client_email, client_phone FROM appointments
		WHERE user_id = ? AND (? = '' OR professional_id = ?) AND `+clause+` ORDER BY appointment_date DESC, appointment_time DESC LIMIT 400`,
		append([]any{userID, professionalID, professionalID}, matchArgs...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var m Match
		if err := rows.Scan(&m.Identifier, &m.Ref, &m.Name, &m.Email, &m.Phone); err != nil {
			return nil, err
		}
		if seen[m.Identifier] || len(out) == SearchLimit {
			continue
		}
		seen[m.Identifier] = true
		out = append(out, m)
	}
	return out, rows.Err()
}

// contacts fills each client's name, e-mail and phone from their latest
// appointment, fetched by id in batches. The query names only the ids, so
// the primary key is the one way to read it; the owner is checked on each
// row instead. With "user_id = ?" beside them, SQLite (which keeps only
// average statistics) took an owner for a hundred rows and read all of a
// busy owner's appointments once per batch: seconds for 5,000 clients.
func (s *Service) contacts(ctx context.Context, userID string, list []Client, latest map[string]int) error {
	ids := make([]any, 0, len(latest))
	for id := range latest {
		ids = append(ids, id)
	}
	for len(ids) > 0 {
		batch := ids[:min(len(ids), contactBatch)]
		ids = ids[len(batch):]
		rows, err := s.DB.QueryContext(ctx, `SELECT id, user_id, client_name, client_email, client_phone FROM appointments
			WHERE id IN (?`+strings.Repeat(", ?", len(batch)-1)+`)`, batch...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, owner, name, email, phone string
			if err := rows.Scan(&id, &owner, &name, &email, &phone); err != nil {
				rows.Close()
				return err
			}
			i, ok := latest[id]
			if !ok || owner != userID {
				continue
			}
			c := &list[i]
			c.Name, c.Email, c.Phone = name, email, phone
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// SpecColumns are the clients export's columns SPEC names (§7), in its order.
var SpecColumns = []string{"Nome", "Email", "Telefone", "Agendamentos", "Último Agendamento", "Receita Total"}

// CSV writes the clients the way spreadsheets used in Brazil open them:
// UTF-8 with BOM, ';' separators, R$ amounts with a decimal comma, and values
// that start with = + - @ neutralised against formula injection. Its columns
// say what the numbers count: attended apart from scheduled.
func CSV(w interface{ Write([]byte) (int, error) }, list []Client) error {
	if _, err := w.Write([]byte("\uFEFF")); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	cw.UseCRLF = true
	if err := cw.Write(append(append([]string{}, SpecColumns...), "Atendimentos", "Último atendimento", "Receita realizada", "Agendados", "Próximo agendamento", "Não compareceu")); err != nil {
		return err
	}
	for _, c := range list {
		if err := cw.Write([]string{brfmt.SheetCell(c.Name), brfmt.SheetCell(c.Email), brfmt.SheetCell(c.Phone), strconv.Itoa(c.BookedCount), brfmt.Date(c.LastBooked), brfmt.SheetMoney(c.RevenueCents + c.ScheduledCents),
			strconv.Itoa(c.AttendedCount), brfmt.Date(c.LastAttended), brfmt.SheetMoney(c.RevenueCents),
			strconv.Itoa(c.ScheduledCount), brfmt.Date(c.NextAppointment), strconv.Itoa(c.NoShows)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Handlers serves /api/clients.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
	Memo *memo.Cache // nil: no cache
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/clients", h.Auth.RequireTeam(h.Memo.Owner("clients", auth.UserID, httpx.Handle(h.list))))
	mux.Handle("GET /api/clients/search", h.Auth.RequireTeam(httpx.Handle(h.search)))
	mux.Handle("GET /api/clients/export", h.Auth.RequireUser(h.Memo.Owner("clients.csv", auth.UserID, httpx.Handle(h.export))))
	mux.Handle("GET /api/clients/data", h.Auth.RequireUser(httpx.Handle(h.data)))
	mux.Handle("POST /api/clients/erase", h.Auth.RequireUser(httpx.Handle(h.erase)))
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	if offset < 0 {
		offset = 0
	}
	q, err := httpx.SearchText(r)
	if err != nil {
		return err
	}
	list, total, err := h.Svc.List(r.Context(), auth.UserID(r.Context()), auth.Professional(r.Context()), q, limit, offset)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"clients": list, "total": total})
	return nil
}

func (h *Handlers) search(w http.ResponseWriter, r *http.Request) error {
	q, err := httpx.SearchText(r)
	if err != nil {
		return err
	}
	list, err := h.Svc.Search(r.Context(), auth.UserID(r.Context()), auth.Professional(r.Context()), q)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"clients": list})
	return nil
}

func (h *Handlers) export(w http.ResponseWriter, r *http.Request) error {
	q, err := httpx.SearchText(r)
	if err != nil {
		return err
	}
	list, _, err := h.Svc.List(r.Context(), auth.UserID(r.Context()), "", q, 0, 0)
	if err != nil {
		return err
	}
	name := "clientes-agendei-" + h.Svc.Clock.Now().Format("2006-01-02") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	return CSV(w, list)
}

// Package hours is the weekly working hours: for each weekday, closed or any
// number of windows (08:00–12:00 and 13:30–18:00: the gap is a break), for
// the practice and for each professional who keeps a week of their own
// (the others follow the practice's). Rows exist only for open windows.
package hours

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/slots"
)

// Window is one stretch of work, times as HH:MM.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Day is one weekday (0 Sunday … 6 Saturday): closed, or open in its windows.
// Start and End are the day's opening and closing (first start, last end),
// for clients that know one window a day: a day sent with Start and End and
// no Windows is that one window.
type Day struct {
	DayOfWeek int      `json:"dayOfWeek"`
	Enabled   bool     `json:"enabled"`
	Start     string   `json:"start"`
	End       string   `json:"end"`
	Windows   []Window `json:"windows"`
}

// Week is the seven days, Sunday first; Configured is false until first saved.
type Week struct {
	Configured bool  `json:"configured"`
	Days       []Day `json:"days"`
}

// DayNames are the weekdays in pt-BR, Sunday first.
var DayNames = [7]string{"Domingo", "Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado"}

// MaxWindows is how many windows a day may have.
const MaxWindows = 6

// Defaults is the hours form before anything is saved (SPEC §3): Monday to
// Friday 09:00–19:00 open; Sunday 09:00–17:00 and Saturday 09:00–13:00 closed.
func Defaults() []Day {
	days := make([]Day, 7)
	for d := range 7 {
		end := "19:00"
		switch d {
		case 0:
			end = "17:00"
		case 6:
			end = "13:00"
		}
		days[d] = Day{DayOfWeek: d, Enabled: d >= 1 && d <= 5}.with([]Window{{"09:00", end}})
	}
	return days
}

// with sets the day's windows and its Start and End from them.
func (d Day) with(ws []Window) Day {
	d.Windows = ws
	if len(ws) > 0 {
		d.Start, d.End = ws[0].Start, ws[len(ws)-1].End
	}
	return d
}

// Normalize reads what a client sent: Windows, or else Start–End as the one
// window; windows sorted by start.
func Normalize(days []Day) []Day {
	out := make([]Day, len(days))
	for i, d := range days {
		ws := slices.Clone(d.Windows)
		if len(ws) == 0 && (d.Start != "" || d.End != "") {
			ws = []Window{{d.Start, d.End}}
		}
		slices.SortFunc(ws, func(a, b Window) int {
			if a.Start < b.Start {
				return -1
			}
			if a.Start > b.Start {
				return 1
			}
			return 0
		})
		out[i] = d.with(ws)
	}
	return out
}

// Validate checks a whole week (normalized): seven distinct weekdays, and
// each open day with 1 to MaxWindows windows of valid times, each ending
// after it starts, none overlapping another.
func Validate(days []Day) error {
	if len(days) != 7 {
		return httpx.Validation("Envie os sete dias da semana.")
	}
	seen := [7]bool{}
	for _, d := range days {
		if d.DayOfWeek < 0 || d.DayOfWeek > 6 || seen[d.DayOfWeek] {
			return httpx.Validation("Dia da semana inválido.")
		}
		seen[d.DayOfWeek] = true
		if !d.Enabled {
			continue
		}
		name := DayNames[d.DayOfWeek]
		if len(d.Windows) == 0 {
			return httpx.Validation(fmt.Sprintf("Informe os horários de %s no formato HH:MM.", name))
		}
		if len(d.Windows) > MaxWindows {
			return httpx.Validation(fmt.Sprintf("Use no máximo %d períodos por dia (%s).", MaxWindows, name))
		}
		for i, w := range d.Windows {
			_, err1 := slots.ParseHHMM(w.Start)
			_, err2 := slots.ParseHHMM(w.End)
			if err1 != nil || err2 != nil {
				return httpx.Validation(fmt.Sprintf("Informe os horários de %s no formato HH:MM.", name))
			}
			if w.End <= w.Start {
				return httpx.Validation(fmt.Sprintf("O horário de término deve ser depois do início (%s).", name))
			}
			if i > 0 && w.Start < d.Windows[i-1].End {
				return httpx.Validation(fmt.Sprintf("Os períodos de %s se sobrepõem: cada um deve começar depois que o anterior termina.", name))
			}
		}
	}
	return nil
}

// Store reads and saves weeks.
type Store struct{ DB *db.DB }

// Get returns the practice's week, filling unsaved days with the defaults.
func (s *Store) Get(ctx context.Context, userID string) (*Week, error) {
	return read(ctx, s.DB, userID, "")
}

// read returns the week of the practice (professionalID "") or of a
// professional's own rows.
func read(ctx context.Context, q db.Querier, userID, professionalID string) (*Week, error) {
	query := `SELECT day_of_week, start_time, end_time FROM availability WHERE user_id = ? AND professional_id IS NULL ORDER BY day_of_week, start_time`
	args := []any{userID}
	if professionalID != "" {
		query = `SELECT day_of_week, start_time, end_time FROM availability WHERE user_id = ? AND professional_id = ? ORDER BY day_of_week, start_time`
		args = append(args, professionalID)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var open [7][]Window
	saved := false
	for rows.Next() {
		var d int
		var w Window
		if err := rows.Scan(&d, &w.Start, &w.End); err != nil {
			return nil, err
		}
		if d >= 0 && d <= 6 {
			open[d] = append(open[d], w)
			saved = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	w := &Week{Configured: saved, Days: Defaults()}
	if saved { // once saved, days without a row are closed
		for d := range w.Days {
			w.Days[d].Enabled = len(open[d]) > 0
			if len(open[d]) > 0 {
				w.Days[d] = w.Days[d].with(open[d])
			}
		}
	}
	return w, nil
}

// Save replaces the practice's week.
func (s *Store) Save(ctx context.Context, userID string, days []Day) (*Week, error) {
	days = Normalize(days)
	if err := Validate(days); err != nil {
		return nil, err
	}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error { return Replace(ctx, tx, userID, days) })
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, userID)
}

// Replace writes the practice's validated week inside the caller's transaction.
func Replace(ctx context.Context, tx *db.Tx, userID string, days []Day) error {
	return replace(ctx, tx, userID, "", Normalize(days))
}

// lockWeeks serialises the saves of an owner's weeks (the practice's and each
// professional's) on the owner's profile row. A save deletes the week's rows
// and inserts the new ones; under PostgreSQL's READ COMMITTED two saves at
// once would each delete only the rows committed before it started and both
// insert, leaving the union of their windows, a week nobody sent. SQLite's
// writes already run one at a time.
func lockWeeks(ctx context.Context, tx *db.Tx, userID string) error {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM profiles WHERE id = ?`+tx.LockRow(), userID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

// replace writes one row per window of each open day, nothing for closed
// days, once it holds the owner's lock.
func replace(ctx context.Context, tx *db.Tx, userID, professionalID string, days []Day) error {
	err := lockWeeks(ctx, tx, userID)
	if err != nil {
		return err
	}
	if professionalID == "" {
		_, err = tx.ExecContext(ctx, `DELETE FROM availability WHERE user_id = ? AND professional_id IS NULL`, userID)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM availability WHERE user_id = ? AND professional_id = ?`, userID, professionalID)
	}
	if err != nil {
		return err
	}
	var pro any
	if professionalID != "" {
		pro = professionalID
	}
	for _, d := range days {
		if !d.Enabled {
			continue
		}
		for _, w := range d.Windows {
			if _, err := tx.ExecContext(ctx, `INSERT INTO availability (id, user_id, professional_id, day_of_week, start_time, end_time) VALUES (?, ?, ?, ?, ?, ?)`,
				uuid.NewString(), userID, pro, d.DayOfWeek, w.Start, w.End); err != nil {
				return err
			}
		}
	}
	return nil
}

// ProfessionalWeek is a professional's hours: their own week, or (OwnHours
// false) the practice's, which they follow.
type ProfessionalWeek struct {
	OwnHours bool  `json:"ownHours"`
	Days     []Day `json:"days"`
}

var errProfessional = httpx.NewError(http.StatusNotFound, "not_found", "Profissional não encontrado.")

// GetProfessional returns the week a professional works.
func (s *Store) GetProfessional(ctx context.Context, userID, professionalID string) (*ProfessionalWeek, error) {
	var own bool
	err := s.DB.QueryRowContext(ctx, `SELECT own_hours FROM professionals WHERE id = ? AND user_id = ?`, professionalID, userID).Scan(&own)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errProfessional
	}
	if err != nil {
		return nil, err
	}
	who := ""
	if own {
		who = professionalID
	}
	w, err := read(ctx, s.DB, userID, who)
	if err != nil {
		return nil, err
	}
	if own && !w.Configured { // their own week with every day closed
		for d := range w.Days {
			w.Days[d].Enabled = false
		}
	}
	return &ProfessionalWeek{OwnHours: own, Days: w.Days}, nil
}

// SaveProfessional sets whether a professional keeps their own week and, if
// so, replaces it (days are ignored when following the practice).
func (s *Store) SaveProfessional(ctx context.Context, userID, professionalID string, in ProfessionalWeek) (*ProfessionalWeek, error) {
	days := Normalize(in.Days)
	if in.OwnHours {
		if err := Validate(days); err != nil {
			return nil, err
		}
	}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		// The owner's row before the professional's, the order every save of
		// a week takes them in.
		if err := lockWeeks(ctx, tx, userID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE professionals SET own_hours = ? WHERE id = ? AND user_id = ?`, in.OwnHours, professionalID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errProfessional
		}
		if !in.OwnHours {
			days = nil
		}
		return replace(ctx, tx, userID, professionalID, days)
	})
	if err != nil {
		return nil, err
	}
	return s.GetProfessional(ctx, userID, professionalID)
}

// Handlers serves /api/availability and /api/professionals/{id}/hours.
type Handlers struct {
	Store *Store
	Auth  *auth.Handlers
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/availability", h.Auth.RequireUser(httpx.Handle(h.get)))
	mux.Handle("PUT /api/availability", h.Auth.RequireUser(httpx.Handle(h.save)))
	mux.Handle("GET /api/professionals/{id}/hours", h.Auth.RequireUser(httpx.Handle(h.getProfessional)))
	mux.Handle("PUT /api/professionals/{id}/hours", h.Auth.RequireUser(httpx.Handle(h.saveProfessional)))
}

func (h *Handlers) get(w http.ResponseWriter, r *http.Request) error {
	week, err := h.Store.Get(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, week, err)
}

func (h *Handlers) save(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Days []Day `json:"days"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	week, err := h.Store.Save(r.Context(), auth.UserID(r.Context()), in.Days)
	return httpx.Respond(w, http.StatusOK, week, err)
}

func (h *Handlers) getProfessional(w http.ResponseWriter, r *http.Request) error {
	week, err := h.Store.GetProfessional(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	return httpx.Respond(w, http.StatusOK, week, err)
}

func (h *Handlers) saveProfessional(w http.ResponseWriter, r *http.Request) error {
	var in ProfessionalWeek
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	week, err := h.Store.SaveProfessional(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), in)
	return httpx.Respond(w, http.StatusOK, week, err)
}

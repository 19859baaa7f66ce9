// Package hours is the owner's weekly opening hours: one window per weekday.
package hours

import (
	"context"
	"fmt"
	"net/http"
	"regexp"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Day is one weekday's window (0 Sunday … 6 Saturday), times as HH:MM.
type Day struct {
	DayOfWeek int    `json:"dayOfWeek"`
	Enabled   bool   `json:"enabled"`
	Start     string `json:"start"`
	End       string `json:"end"`
}

// Week is the seven days, Sunday first; Configured is false until first saved.
type Week struct {
	Configured bool  `json:"configured"`
	Days       []Day `json:"days"`
}

// DayNames are the weekdays in pt-BR, Sunday first.
var DayNames = [7]string{"Domingo", "Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado"}

// Defaults is the hours form before anything is saved (SPEC §3): Monday to
// Friday 09:00–19:00 open; Sunday 09:00–17:00 and Saturday 09:00–13:00 closed.
func Defaults() []Day {
	days := make([]Day, 7)
	for d := range 7 {
		days[d] = Day{DayOfWeek: d, Enabled: d >= 1 && d <= 5, Start: "09:00", End: "19:00"}
	}
	days[0].End = "17:00"
	days[6].End = "13:00"
	return days
}

var hhmm = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// Validate checks a whole week: seven distinct weekdays, valid times, and
// each enabled day ending after it starts.
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
		if !hhmm.MatchString(d.Start) || !hhmm.MatchString(d.End) {
			return httpx.Validation(fmt.Sprintf("Informe os horários de %s no formato HH:MM.", DayNames[d.DayOfWeek]))
		}
		if d.End <= d.Start {
			return httpx.Validation(fmt.Sprintf("O horário de término deve ser depois do início (%s).", DayNames[d.DayOfWeek]))
		}
	}
	return nil
}

// Store reads and saves weeks.
type Store struct{ DB *db.DB }

// Get returns the owner's week, filling unsaved days with the defaults.
func (s *Store) Get(ctx context.Context, userID string) (*Week, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT day_of_week, start_time, end_time, active FROM availability WHERE user_id = ?`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	w := &Week{Days: Defaults()}
	saved := false
	for rows.Next() {
		var d Day
		if err := rows.Scan(&d.DayOfWeek, &d.Start, &d.End, &d.Enabled); err != nil {
			return nil, err
		}
		if d.DayOfWeek >= 0 && d.DayOfWeek <= 6 {
			if !saved { // once saved, days without a row are closed
				for i := range w.Days {
					w.Days[i].Enabled = false
				}
				saved = true
			}
			w.Days[d.DayOfWeek] = d
		}
	}
	w.Configured = saved
	return w, rows.Err()
}

// Save replaces the owner's week: one row per enabled day.
func (s *Store) Save(ctx context.Context, userID string, days []Day) (*Week, error) {
	if err := Validate(days); err != nil {
		return nil, err
	}
	err := s.DB.InTx(ctx, func(tx *db.Tx) error { return Replace(ctx, tx, userID, days) })
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, userID)
}

// Replace writes a validated week inside the caller's transaction: one row
// per enabled day, nothing for closed days.
func Replace(ctx context.Context, tx *db.Tx, userID string, days []Day) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM availability WHERE user_id = ?`, userID); err != nil {
		return err
	}
	for _, d := range days {
		if !d.Enabled {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO availability (id, user_id, day_of_week, start_time, end_time, active) VALUES (?, ?, ?, ?, ?, TRUE)`,
			uuid.NewString(), userID, d.DayOfWeek, d.Start, d.End); err != nil {
			return err
		}
	}
	return nil
}

// Handlers serves /api/availability.
type Handlers struct {
	Store *Store
	Auth  *auth.Handlers
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/availability", h.Auth.RequireUser(httpx.Handle(h.get)))
	mux.Handle("PUT /api/availability", h.Auth.RequireUser(httpx.Handle(h.save)))
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

// Days off (/api/days-off): closed date ranges of the practice or of one
// professional, saved over confirmed appointments only by the owner's choice.

package schedule

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/slots"
	"github.com/google/uuid"
)

// DayOff is a closed date range of the practice (ProfessionalID nil) or of one professional.
type DayOff struct {
	ID               string  `json:"id"`
	ProfessionalID   *string `json:"professionalId"`
	ProfessionalName string  `json:"professionalName"`
	Start            string  `json:"start"`
	End              string  `json:"end"`
	Reason           string  `json:"reason"`
	// Kept are the confirmed appointments it was saved over and left in
	// place by the owner's choice.
	Kept []string `json:"kept"`
	// Outcomes, in the answer to its save, say what became of each
	// appointment it was saved over, and how its client was told.
	Outcomes []Outcome `json:"outcomes,omitempty"`
}

// DayOffInput is a new day off; End defaults to Start. Keep names the
// confirmed appointments of those dates the owner chose to leave in place,
// and Plan says for each keep or cancel, as a block's (settle); one left
// undecided refuses the save.
type DayOffInput struct {
	ProfessionalID *string  `json:"professionalId"`
	Start          string   `json:"start"`
	End            string   `json:"end"`
	Reason         string   `json:"reason"`
	Keep           []string `json:"keep"`
	Plan           []Choice `json:"plan"`
}

// DaysOff lists the days off that have not ended, by start.
func (s *Settings) DaysOff(ctx context.Context, userID string) ([]DayOff, error) {
	loc, err := Zone(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	today := slots.Today(s.Clock.Now(), loc)
	out := []DayOff{}
	err = db.Each(ctx, s.DB, `SELECT d.id, d.professional_id, COALESCE(p.name, ''), d.start_date, d.end_date, d.reason, d.kept
		FROM days_off d LEFT JOIN professionals p ON p.id = d.professional_id
		WHERE d.user_id = ? AND d.end_date >= ? ORDER BY d.start_date, d.end_date, d.id`, []any{userID, today}, func(r *sql.Rows) error {
		var d DayOff
		var pro sql.NullString
		var kept string
		if err := r.Scan(&d.ID, &pro, &d.ProfessionalName, &d.Start, &d.End, &d.Reason, &kept); err != nil {
			return err
		}
		d.Kept = keptList(kept)
		if pro.Valid {
			d.ProfessionalID = &pro.String
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// checkDayOff validates a new day off.
func checkDayOff(in DayOffInput) (DayOff, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	if in.End == "" {
		in.End = in.Start
	}
	start, err1 := slots.ParseDate(in.Start)
	end, err2 := slots.ParseDate(in.End)
	switch {
	case err1 != nil || err2 != nil:
		return DayOff{}, errDates
	case end.Before(start):
		return DayOff{}, errOrder
	case end.Sub(start) > 365*24*time.Hour:
		return DayOff{}, errLong
	case utf8.RuneCountInString(in.Reason) > 120:
		return DayOff{}, errReason
	}
	d := DayOff{ID: uuid.NewString(), ProfessionalID: in.ProfessionalID, Start: in.Start, End: in.End, Reason: in.Reason, Kept: []string{}}
	if in.ProfessionalID != nil && *in.ProfessionalID == "" {
		d.ProfessionalID = nil
	}
	return d, nil
}

// AddDayOff closes a date range. A confirmed appointment of those dates
// stays only when the owner says so (Keep), and is recorded with the day
// off; it is decided under the same locks as a booking, as a block is.
func (s *Settings) AddDayOff(ctx context.Context, userID string, in DayOffInput) (*DayOff, error) {
	d, err := checkDayOff(in)
	if err != nil {
		return nil, err
	}
	err = s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		name, found, err := lockProfessionals(ctx, tx, userID, d.ProfessionalID)
		if err != nil {
			return err
		}
		if !found {
			return errProfessional
		}
		d.ProfessionalName = name
		list, err := affected(ctx, tx, userID, d.ProfessionalID, d.Start, d.End, 0, 24*60)
		if err != nil {
			return err
		}
		kept, outcomes, err := s.settle(ctx, tx, userID, list, in.Keep, in.Plan, func(date string, _, _ int) bool {
			return date >= d.Start && date <= d.End
		})
		if err != nil {
			return err
		}
		d.Outcomes = outcomes
		d.Kept = keptList(kept)
		var pro any
		if d.ProfessionalID != nil {
			pro = *d.ProfessionalID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO days_off (id, user_id, professional_id, start_date, end_date, reason, kept, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, userID, pro, d.Start, d.End, d.Reason, kept, s.Clock.Now()); err != nil {
			return err
		}
		return s.tellDayOff(ctx, tx, userID, "Folga registrada", d)
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// DeleteDayOff opens the dates again.
func (s *Settings) DeleteDayOff(ctx context.Context, userID, id string) error {
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var d DayOff
		var pro, proID sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT d.start_date, d.end_date, d.reason, p.name, d.professional_id FROM days_off d LEFT JOIN professionals p ON p.id = d.professional_id
			WHERE d.id = ? AND d.user_id = ?`, id, userID).Scan(&d.Start, &d.End, &d.Reason, &pro, &proID)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		if pro.Valid {
			d.ProfessionalID, d.ProfessionalName = &pro.String, pro.String
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM days_off WHERE id = ? AND user_id = ?`, id, userID); err != nil {
			return err
		}
		if err := s.tellFreed(ctx, tx, userID, proID, d.Start, d.End, "00:00", "24:00"); err != nil {
			return err
		}
		return s.tellDayOff(ctx, tx, userID, "Folga removida", d)
	})
}

// tellDayOff is the owner's notification of days off added or removed.
func (s *Settings) tellDayOff(ctx context.Context, tx *db.Tx, userID, title string, d DayOff) error {
	when := brfmt.Date(d.Start)
	if d.End != d.Start {
		when = "de " + when + " a " + brfmt.Date(d.End)
	}
	return s.Notes.Create(ctx, tx, userID, notifications.Appointment, title, note(who(d.ProfessionalID, d.ProfessionalName)+": "+when, d.Reason), "")
}

func (h *SettingsHandlers) listDaysOff(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	out, err := h.Settings.DaysOff(r.Context(), uid)
	return httpx.Respond(w, http.StatusOK, out, err)
}

func (h *SettingsHandlers) addDayOff(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	var in DayOffInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Settings.AddDayOff(r.Context(), uid, in)
	return httpx.Respond(w, http.StatusCreated, out, err)
}

func (h *SettingsHandlers) previewDayOff(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	var in DayOffInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Settings.DayOffAffected(r.Context(), uid, in)
	return httpx.Respond(w, http.StatusOK, map[string][]Affected{"appointments": out}, err)
}

func (h *SettingsHandlers) deleteDayOff(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	return noContent(w, h.Settings.DeleteDayOff(r.Context(), uid, r.PathValue("id")))
}

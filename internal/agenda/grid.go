package agenda

import (
	"cmp"
	"context"
	"database/sql"
	"net/http"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking/slots"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
)

// The agenda's time grid (GET /api/agenda/grid): what the day and week views
// draw. It is one read of the range's appointments and blocks (one round
// trip on PostgreSQL) beside the owner's schedule setup, which the slot
// engine keeps per data version: each column's hours and why it is closed
// are the engine's own plan (schedule.Setup.Plan), never a second
// implementation, so the shading is exactly what a booking is refused over.

// GridProfessional is a column of the grid: a professional, or ID "" for
// the appointments whose professional was deleted.
type GridProfessional struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
}

// GridColumn is one professional's plan of one date.
type GridColumn struct {
	ProfessionalID string            `json:"professionalId"`
	Windows        []schedule.Window `json:"windows"`
	Closed         schedule.Closed   `json:"closed"`
	Label          string            `json:"label"`
}

// GridDay is one date of the grid, a column per professional in the
// professionals' order.
type GridDay struct {
	Date    string       `json:"date"`
	Columns []GridColumn `json:"columns"`
}

// GridAppointment is an appointment as the grid draws it: with the buffers
// it was booked with (the lighter tail), and ProfessionalID "" when its
// professional was deleted.
type GridAppointment struct {
	ID               string    `json:"id"`
	ProfessionalID   string    `json:"professionalId"`
	ProfessionalName string    `json:"professionalName"`
	ServiceID        *string   `json:"serviceId"`
	ServiceName      string    `json:"serviceName"`
	Duration         int       `json:"duration"`
	BufferBefore     int       `json:"bufferBefore"`
	BufferAfter      int       `json:"bufferAfter"`
	PriceCents       int64     `json:"priceCents"`
	ClientName       string    `json:"clientName"`
	ClientEmail      string    `json:"clientEmail"`
	ClientPhone      string    `json:"clientPhone"`
	Notes            string    `json:"notes"`
	Date             string    `json:"date"`
	Time             string    `json:"time"`
	Status           string    `json:"status"`
	CreatedAt        time.Time `json:"createdAt"`
	SeriesID         *string   `json:"seriesId"`
}

// Grid is the agenda's time grid of a range.
type Grid struct {
	Today         string             `json:"today"` // the owner's today
	Now           string             `json:"now"`   // the owner's current HH:MM: the "now" line
	Professionals []GridProfessional `json:"professionals"`
	Days          []GridDay          `json:"days"`
	Appointments  []GridAppointment  `json:"appointments"` // all statuses, by date and time
	Blocks        []schedule.Block   `json:"blocks"`
}

// GridQuery asks for the grid of the dates From..To (inclusive, at most
// GridDays), of every column or of one professional's.
type GridQuery struct {
	From, To, ProfessionalID string
}

// GridDays is the longest range one grid draws: a week.
const GridDays = 7

// noProfessional names the column of appointments whose professional was deleted.
const noProfessional = "Sem profissional"

var (
	errGridRange        = httpx.Validation("Informe um período válido (até 7 dias).")
	errGridProfessional = httpx.NewError(http.StatusNotFound, "not_found", "Profissional não encontrado.")
)

// dates reads the query's range.
func (q GridQuery) dates() (first, last time.Time, err error) {
	first, err1 := slots.ParseDate(q.From)
	last, err2 := slots.ParseDate(q.To)
	if err1 != nil || err2 != nil || last.Before(first) || last.Sub(first) > (GridDays-1)*24*time.Hour {
		return first, last, errGridRange
	}
	return first, last, nil
}

// Grid is the owner's grid of a range, from their setup st (as of their
// current data version). Every appointment of the range — every status, and
// those of inactive or deleted professionals — is in it and has a column.
func (s *Service) Grid(ctx context.Context, st *schedule.Setup, q GridQuery) (*Grid, error) {
	first, last, err := q.dates()
	if err != nil {
		return nil, err
	}
	if q.ProfessionalID != "" && st.Professionals[q.ProfessionalID] == nil {
		return nil, errGridProfessional // another owner's, or none
	}
	g := &Grid{Appointments: []GridAppointment{}, Blocks: []schedule.Block{}}
	read := `SELECT id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents,
		client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id
		FROM appointments WHERE user_id = ? AND appointment_date >= ? AND appointment_date <= ?`
	args := []any{st.OwnerID, q.From, q.To}
	if q.ProfessionalID != "" {
		read += ` AND professional_id = ?`
		args = append(args, q.ProfessionalID)
	}
	read += ` ORDER BY appointment_date, appointment_time, id`
	err = db.ReadAll(ctx, s.DB, db.Read{Query: read, Args: args, Row: func(scan func(...any) error) error {
		var a GridAppointment
		var pro, svc, series sql.NullString
		if err := scan(&a.ID, &pro, &a.ProfessionalName, &svc, &a.ServiceName, &a.Duration, &a.BufferBefore, &a.BufferAfter, &a.PriceCents,
			&a.ClientName, &a.ClientEmail, &a.ClientPhone, &a.Notes, &a.Date, &a.Time, &a.Status, &a.CreatedAt, &series); err != nil {
			return err
		}
		a.ProfessionalID = pro.String
		if svc.Valid {
			a.ServiceID = &svc.String
		}
		if series.Valid {
			a.SeriesID = &series.String
		}
		a.CreatedAt = a.CreatedAt.UTC()
		g.Appointments = append(g.Appointments, a)
		return nil
	}}, schedule.BlocksRead(st.OwnerID, q.From, q.To, &g.Blocks))
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now().In(st.Loc)
	g.Today, g.Now = now.Format("2006-01-02"), now.Format("15:04")
	g.Professionals = gridColumns(st, q.ProfessionalID, g.Appointments)

	shown := make(map[string]bool, len(g.Professionals))
	for _, p := range g.Professionals {
		shown[p.ID] = true
	}
	blocks := g.Blocks[:0] // a practice-wide block shades every column
	for _, b := range g.Blocks {
		if b.ProfessionalID == nil || shown[*b.ProfessionalID] {
			blocks = append(blocks, b)
		}
	}
	g.Blocks = blocks

	g.Days = make([]GridDay, 0, GridDays)
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		day := GridDay{Date: d.Format("2006-01-02"), Columns: make([]GridColumn, 0, len(g.Professionals))}
		for _, p := range g.Professionals {
			// The "Sem profissional" column (ID "") follows the practice's own week.
			plan := st.Plan(p.ID, d)
			col := GridColumn{ProfessionalID: p.ID, Windows: make([]schedule.Window, 0, len(plan.Windows)), Closed: plan.Closed, Label: plan.Label}
			for _, w := range plan.Windows {
				col.Windows = append(col.Windows, schedule.Window{Start: slots.FormatHHMM(w[0]), End: slots.FormatHHMM(w[1])})
			}
			day.Columns = append(day.Columns, col)
		}
		g.Days = append(g.Days, day)
	}
	return g, nil
}

// gridColumns are the grid's columns: only the one asked for, or the active
// professionals in the team's order, then the inactive ones with an
// appointment in the range, then "Sem profissional" when an appointment's
// professional was deleted — so that no appointment is left without one.
func gridColumns(st *schedule.Setup, only string, appts []GridAppointment) []GridProfessional {
	if only != "" {
		p := st.Professionals[only]
		return []GridProfessional{{ID: p.ID, Name: p.Name, Active: p.Active}}
	}
	booked := map[string]string{} // professional id → the name an appointment keeps of them
	for _, a := range appts {
		if _, ok := booked[a.ProfessionalID]; !ok {
			booked[a.ProfessionalID] = a.ProfessionalName
		}
	}
	var pros []*schedule.Professional
	for _, p := range st.Professionals {
		if _, ok := booked[p.ID]; p.Active || ok {
			pros = append(pros, p)
		}
	}
	slices.SortFunc(pros, func(a, b *schedule.Professional) int {
		if a.Active != b.Active {
			if a.Active {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Rank, b.Rank)
	})
	out := make([]GridProfessional, 0, len(pros)+1)
	for _, p := range pros {
		out = append(out, GridProfessional{ID: p.ID, Name: p.Name, Active: p.Active})
	}
	// A professional added after the setup was read (a booking of theirs
	// committed in between) still gets a column, named as the appointment
	// names them.
	var late []string
	for id := range booked {
		if id != "" && st.Professionals[id] == nil {
			late = append(late, id)
		}
	}
	slices.Sort(late)
	for _, id := range late {
		out = append(out, GridProfessional{ID: id, Name: booked[id], Active: true})
	}
	if _, ok := booked[""]; ok {
		out = append(out, GridProfessional{ID: "", Name: noProfessional})
	}
	return out
}

// grid serves the agenda's time grid. The setup comes from the booking
// service's per-version cache, as the slot engine reads it.
func (h *Handlers) grid(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	in := GridQuery{From: q.Get("from"), To: q.Get("to"), ProfessionalID: q.Get("professional")}
	if _, _, err := in.dates(); err != nil {
		return err
	}
	st, err := h.Booking.OwnerSetup(r.Context(), auth.UserID(r.Context()))
	if err != nil {
		return err
	}
	g, err := h.Svc.Grid(r.Context(), st, in)
	return httpx.Respond(w, http.StatusOK, g, err)
}

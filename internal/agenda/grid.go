package agenda

import (
	"cmp"
	"context"
	"database/sql"
	"net/http"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/versions"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
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
// it was booked with (the lighter tail), ProfessionalID "" when its
// professional was deleted, and its deposit's state when it has one still
// worth a mark.
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
	// Answer is the client's answer to a reminder: "" (sem resposta),
	// "confirmed", "reschedule" or "cancelled" (booking.Answer).
	Answer string `json:"answer"`
	// Deposit is the state of the appointment's deposit when it is one the
	// grid marks (gridDepositStates): pending ("aguardando sinal"), paid,
	// to_return, returned or retained; nil without a deposit, or when it
	// expired or was cancelled (the appointment is cancelled and marked so).
	Deposit *string `json:"deposit"`
	// PersonalBusy marks a holding appointment that busy time imported from
	// its professional's own calendar lies over (issue 42): the owner was
	// told once, and the grid keeps the mark while the two overlap.
	PersonalBusy bool `json:"personalBusy"`
}

// GridBusy is busy time imported from a professional's own calendar, as
// the grid draws it: one piece per date of the range it touches, in the
// owner's wall clock ("24:00" ends a piece at midnight). Title is the
// event's title only when the owner turned titles on for that calendar;
// the grid says "Ocupado (agenda pessoal)" otherwise. Never on a public
// page or feed.
type GridBusy struct {
	ProfessionalID string `json:"professionalId"`
	Date           string `json:"date"`
	Start          string `json:"start"`
	End            string `json:"end"`
	Title          string `json:"title"`
}

// Grid is the agenda's time grid of a range.
type Grid struct {
	Today         string             `json:"today"` // the owner's today
	Now           string             `json:"now"`   // the owner's current HH:MM: the "now" line
	Professionals []GridProfessional `json:"professionals"`
	Days          []GridDay          `json:"days"`
	Blocks        []schedule.Block   `json:"blocks"`
	// Busy is the imported busy time of the range's columns, by date and start.
	Busy []GridBusy `json:"busy"`
	// Appointments are every appointment of the range and columns, every
	// status, by date, time and id.
	Appointments []GridAppointment `json:"appointments"`
}

// gridDepositStates are the deposit states the grid marks.
var gridDepositStates = []string{deposits.Pending, deposits.Paid, deposits.ToReturn, deposits.Returned, deposits.Retained}

// appointmentsRead reads the range's appointments (of one professional's,
// when asked) into out, with their deposits: the owner's appointments of
// the dates through (user_id, appointment_date, appointment_time), or the
// professional's through (professional_id, appointment_date), each
// deposit a seek of its primary key.
func appointmentsRead(ownerID string, q GridQuery, out *[]GridAppointment) db.Read {
	query := `SELECT a.id, COALESCE(a.professional_id, ''), a.professional_name, a.service_id, a.service_name, a.duration, a.buffer_before, a.buffer_after,
		a.price_cents, a.client_name, a.client_email, a.client_phone, a.notes, a.appointment_date, a.appointment_time, a.status, a.created_at, a.series_id,
		a.client_answer, d.state
		FROM appointments a LEFT JOIN deposits d ON d.appointment_id = a.id AND d.state IN (?, ?, ?, ?, ?)
		WHERE a.user_id = ? AND a.appointment_date >= ? AND a.appointment_date <= ?`
	args := make([]any, 0, 9)
	for _, st := range gridDepositStates {
		args = append(args, st)
	}
	args = append(args, ownerID, q.From, q.To)
	if q.ProfessionalID != "" {
		query += ` AND a.professional_id = ?`
		args = append(args, q.ProfessionalID)
	}
	return db.Read{Query: query + ` ORDER BY a.appointment_date, a.appointment_time, a.id`, Args: args, Row: func(scan func(...any) error) error {
		var a GridAppointment
		var service, series, deposit sql.NullString
		if err := scan(&a.ID, &a.ProfessionalID, &a.ProfessionalName, &service, &a.ServiceName, &a.Duration, &a.BufferBefore, &a.BufferAfter,
			&a.PriceCents, &a.ClientName, &a.ClientEmail, &a.ClientPhone, &a.Notes, &a.Date, &a.Time, &a.Status, &a.CreatedAt, &series,
			&a.Answer, &deposit); err != nil {
			return err
		}
		a.ServiceID, a.SeriesID, a.Deposit = nullable(service), nullable(series), nullable(deposit)
		a.CreatedAt = a.CreatedAt.UTC().Truncate(time.Second)
		*out = append(*out, a)
		return nil
	}}
}

// nullable is a nullable column as a JSON null or string.
func nullable(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
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

// SetupAt is the owner's schedule setup as of a data version (the booking
// service's per-version cache, as the slot engine reads it).
type SetupAt func(ctx context.Context, ownerID string, version int64) (*schedule.Setup, error)

// Grid is the owner's grid of a range, drawn with their schedule setup as of
// a data version read before the appointments in the same round trip, so
// the setup is never newer than what is drawn over it.
// Every appointment of the range — every status, and those of inactive or
// deleted professionals — is in it and has a column.
func (s *Service) Grid(ctx context.Context, ownerID string, setupAt SetupAt, q GridQuery) (*Grid, error) {
	first, last, err := q.dates()
	if err != nil {
		return nil, err
	}
	var days []time.Time
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		days = append(days, d)
	}
	g := &Grid{Blocks: []schedule.Block{}, Busy: []GridBusy{}, Appointments: []GridAppointment{}}
	var away []away
	// The owner's data version first, in the same round trip: the schedule
	// setup drawn is the one as of that version, never newer than the
	// appointments and blocks read after it.
	var version int64
	err = db.ReadAll(ctx, s.DB,
		versions.Read(ownerID, &version),
		appointmentsRead(ownerID, q, &g.Appointments),
		schedule.BlocksRead(ownerID, q.From, q.To, &g.Blocks),
		// A day either side in UTC covers the range in any zone.
		awayRead(ownerID, first.AddDate(0, 0, -1), last.AddDate(0, 0, 2), &away))
	if err != nil {
		return nil, err
	}
	st, err := setupAt(ctx, ownerID, version)
	if err != nil {
		return nil, err
	}
	if q.ProfessionalID != "" && st.Professionals[q.ProfessionalID] == nil {
		return nil, errGridProfessional // another owner's (whose rows the read above never reaches), or none
	}
	// The name a column's appointments keep: the least of them (they differ
	// only after a rename), for a professional the setup does not know.
	booked := map[string]string{}
	for _, a := range g.Appointments {
		if name, ok := booked[a.ProfessionalID]; !ok || a.ProfessionalName < name {
			booked[a.ProfessionalID] = a.ProfessionalName
		}
	}
	now := s.Clock.Now().In(st.Loc)
	g.Today, g.Now = now.Format("2006-01-02"), now.Format("15:04")
	g.Professionals = gridColumns(st, q.ProfessionalID, booked)

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
	g.Busy, g.Appointments = busyOver(st.Loc, days, shown, away, g.Appointments)

	g.Days = make([]GridDay, 0, len(days))
	for _, d := range days {
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

// away is an imported busy interval as the grid reads it.
type away struct {
	professionalID, title string
	start, end            time.Time
}

func awayRead(ownerID string, from, to time.Time, out *[]away) db.Read {
	return db.Read{Query: `SELECT professional_id, starts_at, ends_at, title FROM busy_imported WHERE user_id = ? AND starts_at < ? AND ends_at > ? ORDER BY starts_at, uid`,
		Args: []any{ownerID, to, from}, Row: func(scan func(...any) error) error {
			var a away
			if err := scan(&a.professionalID, &a.start, &a.end, &a.title); err != nil {
				return err
			}
			*out = append(*out, a)
			return nil
		}}
}

// busyOver cuts the imported intervals of the shown columns into the
// pieces of each date of the range, and marks the holding appointments
// they lie over.
func busyOver(loc *time.Location, days []time.Time, shown map[string]bool, list []away, appts []GridAppointment) ([]GridBusy, []GridAppointment) {
	out := []GridBusy{}
	for _, d := range days {
		date := d.Format("2006-01-02")
		dayStart := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc)
		dayEnd := dayStart.AddDate(0, 0, 1)
		for _, a := range list {
			if !shown[a.professionalID] || !a.start.Before(dayEnd) || !a.end.After(dayStart) {
				continue
			}
			from, until := a.start, a.end
			if from.Before(dayStart) {
				from = dayStart
			}
			if until.After(dayEnd) {
				until = dayEnd
			}
			end := until.In(loc).Format("15:04")
			if !until.Before(dayEnd) {
				end = "24:00"
			}
			out = append(out, GridBusy{ProfessionalID: a.professionalID, Date: date, Start: from.In(loc).Format("15:04"), End: end, Title: a.title})
		}
	}
	slices.SortStableFunc(out, func(x, y GridBusy) int { return cmp.Or(cmp.Compare(x.Date, y.Date), cmp.Compare(x.Start, y.Start)) })
	for i, a := range appts {
		if !booking.Holds(a.Status) {
			continue
		}
		day, err1 := time.Parse("2006-01-02", a.Date)
		minute, err2 := slots.ParseHHMM(a.Time)
		if err1 != nil || err2 != nil {
			continue
		}
		start := time.Unix(slots.At(day, minute, loc)*60, 0)
		end := start.Add(time.Duration(max(a.Duration, 1)) * time.Minute)
		appts[i].PersonalBusy = slices.ContainsFunc(list, func(b away) bool {
			return b.professionalID == a.ProfessionalID && b.start.Before(end) && start.Before(b.end)
		})
	}
	return out, appts
}

// gridColumns are the grid's columns: only the one asked for, or the active
// professionals in the team's order, then the inactive ones with an
// appointment in the range (booked: professional id → the name their
// appointments keep), then "Sem profissional" when an appointment's
// professional was deleted — so that no appointment is left without one.
func gridColumns(st *schedule.Setup, only string, booked map[string]string) []GridProfessional {
	if only != "" {
		p := st.Professionals[only]
		return []GridProfessional{{ID: p.ID, Name: p.Name, Active: p.Active}}
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

// grid serves the agenda's time grid. It reads the owner's data version in
// the round trip of its appointments, and the setup comes from the booking
// service's per-version cache, as the slot engine reads it, at that version.
func (h *Handlers) grid(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	in := GridQuery{From: q.Get("from"), To: q.Get("to"), ProfessionalID: forProfessional(r.Context(), q.Get("professional"))}
	if _, _, err := in.dates(); err != nil {
		return err
	}
	g, err := h.Svc.Grid(r.Context(), auth.UserID(r.Context()), h.Booking.OwnerSetupAt, in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, g)
	return nil
}

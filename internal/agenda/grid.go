package agenda

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
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
// it was booked with (the lighter tail), and ProfessionalID "" when its
// professional was deleted. The grid sends it compact (GridGroup): the date
// and professional once per column, the rest as an array, in the order of
// gridItem.
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
}

// Grid is the agenda's time grid of a range.
type Grid struct {
	Today         string             `json:"today"` // the owner's today
	Now           string             `json:"now"`   // the owner's current HH:MM: the "now" line
	Professionals []GridProfessional `json:"professionals"`
	Days          []GridDay          `json:"days"`
	Blocks        []schedule.Block   `json:"blocks"`
	// Deposits are the deposit states of the range's appointments that have
	// one still worth a mark (issue 29): pending ("aguardando sinal"), paid,
	// to_return, returned or retained — an expired or cancelled one's
	// appointment is cancelled and marked so already.
	Deposits []GridDeposit `json:"deposits"`

	// buf.groups is the inside of the grid's "appointments" array, written
	// as the groups are read: every status, one group per date and
	// professional, in that order, each {"date", "professionalId",
	// "items"} with the items of its grid_groups row — grid_items' arrays
	// the database wrote, joined by commas — as they are. Pooled: Send
	// writes it and gives it back.
	buf *gridBuffer
}

// gridBuffer is a grid's answer being written, and the room its read
// scans each group's items into.
type gridBuffer struct {
	head   []byte
	groups []byte
	items  rawText
}

// gridBuffers keeps the grids' buffers (a day of ten columns is ~30 kB):
// making and clearing them for every grid was a tenth of its CPU.
var gridBuffers = sync.Pool{New: func() any { return &gridBuffer{groups: make([]byte, 0, 64<<10)} }}

// maxPooledGrid is the largest buffer given back to the pool: a rare huge
// week is let go rather than kept.
const maxPooledGrid = 1 << 20

// rawText scans a text column by its bytes into b, reusing b's room: the
// driver's own bytes for PostgreSQL (pgtype.BytesScanner, no copy of its
// own), the value database/sql hands over for SQLite.
type rawText struct{ b []byte }

func (r *rawText) ScanBytes(v []byte) error { r.b = append(r.b[:0], v...); return nil }

func (r *rawText) Scan(src any) error {
	switch v := src.(type) {
	case string:
		r.b = append(r.b[:0], v...)
	case []byte:
		r.b = append(r.b[:0], v...)
	case nil:
		r.b = r.b[:0]
	default:
		return fmt.Errorf("grid items: unexpected %T", src)
	}
	return nil
}

// GridGroup is one professional's appointments of one date as the grid
// sends them (api/openapi.yaml's GridGroup): the date and professional
// once, each appointment an array of the fields of gridItem, in its order.
type GridGroup struct {
	Date           string              `json:"date"`
	ProfessionalID string              `json:"professionalId"`
	Items          [][]json.RawMessage `json:"items"`
}

// gridItem is the order of an appointment's fields in a GridGroup's item
// (grid_items.item, written by migration 00037's triggers).
func gridItem(a *GridAppointment) []any {
	return []any{&a.ID, &a.ProfessionalName, &a.ServiceID, &a.ServiceName, &a.Duration, &a.BufferBefore, &a.BufferAfter,
		&a.PriceCents, &a.ClientName, &a.ClientEmail, &a.ClientPhone, &a.Notes, &a.Time, &a.Status, &a.CreatedAt, &a.SeriesID, &a.Answer}
}

// Expand reads the group's appointments back into objects, as the page
// does: an item of the wrong length or type is an error.
func (g GridGroup) Expand() ([]GridAppointment, error) {
	out := make([]GridAppointment, len(g.Items))
	for i, item := range g.Items {
		a := &out[i]
		a.Date, a.ProfessionalID = g.Date, g.ProfessionalID
		fields := gridItem(a)
		if len(item) != len(fields) {
			return nil, fmt.Errorf("grid item %d of %s %q: %d fields, want %d", i, g.Date, g.ProfessionalID, len(item), len(fields))
		}
		for j, f := range fields {
			if err := json.Unmarshal(item[j], f); err != nil {
				return nil, fmt.Errorf("grid item %d of %s %q, field %d: %w", i, g.Date, g.ProfessionalID, j, err)
			}
		}
	}
	return out, nil
}

// Send answers the grid: its fields, then the appointments as the groups
// read. Their text goes out untouched (a json.RawMessage would be parsed
// again, which cost as much as encoding), with its length known, so the
// answer is not chunked.
func (g *Grid) Send(w http.ResponseWriter) error {
	defer g.release()
	head, err := g.appendHead(g.buf.head[:0])
	if err != nil {
		return err
	}
	g.buf.head = head
	g.buf.groups = append(g.buf.groups, "]}\n"...)
	groups := g.buf.groups
	w.Header()["Content-Length"] = []string{strconv.Itoa(len(head) + len(groups))}
	httpx.StartJSON(w, http.StatusOK)
	if _, err := w.Write(head); err != nil {
		return err
	}
	_, err = w.Write(groups)
	return err
}

// release gives the grid's buffer back to the pool.
func (g *Grid) release() {
	if b := g.buf; b != nil && cap(b.head)+cap(b.groups)+cap(b.items.b) <= maxPooledGrid {
		b.head, b.groups, b.items.b = b.head[:0], b.groups[:0], b.items.b[:0]
		gridBuffers.Put(b)
	}
	g.buf = nil
}

// appendHead appends the grid's fields as encoding/json writes the Grid,
// up to its "appointments" array opened: by hand, because reflecting over
// a week of columns was a twentieth of a grid's CPU. Blocks and deposits,
// which most days have none of, go through encoding/json when there are.
func (g *Grid) appendHead(out []byte) ([]byte, error) {
	out = append(out, `{"today":`...)
	out = appendJSONString(out, g.Today)
	out = append(out, `,"now":`...)
	out = appendJSONString(out, g.Now)
	out = append(out, `,"professionals":`...)
	if g.Professionals == nil {
		out = append(out, "null"...)
	} else {
		out = append(out, '[')
		for i, p := range g.Professionals {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, `{"id":`...)
			out = appendJSONString(out, p.ID)
			out = append(out, `,"name":`...)
			out = appendJSONString(out, p.Name)
			out = append(out, `,"active":`...)
			out = strconv.AppendBool(out, p.Active)
			out = append(out, '}')
		}
		out = append(out, ']')
	}
	out = append(out, `,"days":`...)
	if g.Days == nil {
		out = append(out, "null"...)
	} else {
		out = append(out, '[')
		for i, d := range g.Days {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, `{"date":`...)
			out = appendJSONString(out, d.Date)
			out = append(out, `,"columns":`...)
			if d.Columns == nil {
				out = append(out, "null"...)
			} else {
				out = append(out, '[')
				for j, c := range d.Columns {
					if j > 0 {
						out = append(out, ',')
					}
					out = append(out, `{"professionalId":`...)
					out = appendJSONString(out, c.ProfessionalID)
					out = append(out, `,"windows":`...)
					if c.Windows == nil {
						out = append(out, "null"...)
					} else {
						out = append(out, '[')
						for k, w := range c.Windows {
							if k > 0 {
								out = append(out, ',')
							}
							out = append(out, `{"start":`...)
							out = appendJSONString(out, w.Start)
							out = append(out, `,"end":`...)
							out = appendJSONString(out, w.End)
							out = append(out, '}')
						}
						out = append(out, ']')
					}
					out = append(out, `,"closed":`...)
					out = appendJSONString(out, string(c.Closed))
					out = append(out, `,"label":`...)
					out = appendJSONString(out, c.Label)
					out = append(out, '}')
				}
				out = append(out, ']')
			}
			out = append(out, '}')
		}
		out = append(out, ']')
	}
	out = append(out, `,"blocks":`...)
	if len(g.Blocks) == 0 && g.Blocks != nil {
		out = append(out, "[]"...)
	} else if b, err := json.Marshal(g.Blocks); err != nil {
		return nil, err
	} else {
		out = append(out, b...)
	}
	out = append(out, `,"deposits":`...)
	if len(g.Deposits) == 0 && g.Deposits != nil {
		out = append(out, "[]"...)
	} else if b, err := json.Marshal(g.Deposits); err != nil {
		return nil, err
	} else {
		out = append(out, b...)
	}
	return append(out, `,"appointments":[`...), nil
}

// addGroup writes one group of the "appointments" array.
func (g *Grid) addGroup(date, professionalID string, items []byte) {
	out := g.buf.groups
	if len(out) > 0 {
		out = append(out, ',')
	}
	// A date and a professional's id need no escaping (YYYY-MM-DD and
	// the ids the server makes), but they are quoted as JSON all the same.
	out = append(out, `{"date":`...)
	out = appendJSONString(out, date)
	out = append(out, `,"professionalId":`...)
	out = appendJSONString(out, professionalID)
	out = append(append(append(out, `,"items":[`...), items...), "]}"...)
	g.buf.groups = out
}

// GridDeposit is an appointment's deposit state as the grid marks it
// (deposits.Pending, Paid, ToReturn, Returned or Retained).
type GridDeposit struct {
	AppointmentID string `json:"appointmentId"`
	State         string `json:"state"`
}

// gridDepositStates are the states the grid marks.
var gridDepositStates = []any{deposits.Pending, deposits.Paid, deposits.ToReturn, deposits.Returned, deposits.Retained}

// depositsRead reads the deposit states of the range's appointments (of one
// professional's, when asked) into out: the owner's deposits by the date
// each keeps of its appointment (migration 00040), a seek of
// (owner, date) that finds nothing on a day without one. Joining the
// range's appointments to deposits instead cost as much as the grid's own
// read, for deposits most days do not have. A deposit's change bumps the
// owner's data version (migration 00034's triggers), so the event stream
// tells an open grid to read again.
func depositsRead(ownerID string, q GridQuery, out *[]GridDeposit) db.Read {
	query := `SELECT d.appointment_id, d.state FROM deposits d WHERE d.user_id = ? AND d.appointment_date >= ? AND d.appointment_date <= ? AND d.state IN (` +
		strings.TrimSuffix(strings.Repeat("?, ", len(gridDepositStates)), ", ") + `)`
	args := append([]any{ownerID, q.From, q.To}, gridDepositStates...)
	if q.ProfessionalID != "" {
		query += ` AND EXISTS (SELECT 1 FROM appointments a WHERE a.id = d.appointment_id AND a.professional_id = ?)`
		args = append(args, q.ProfessionalID)
	}
	return db.Read{Query: query + ` ORDER BY d.appointment_id`, Args: args, Row: func(scan func(...any) error) error {
		var d GridDeposit
		if err := scan(&d.AppointmentID, &d.State); err != nil {
			return err
		}
		*out = append(*out, d)
		return nil
	}}
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
	g := &Grid{Blocks: []schedule.Block{}, Deposits: []GridDeposit{}}
	booked := map[string]string{} // professional id → the name their appointments keep
	// One row per date and professional (grid_groups, migration 00041):
	// that column's items joined already by the writers' triggers, so the
	// driver steps a row a column and the database reads a row a column —
	// stepping the appointments' rows was most of a SQLite grid's time, and
	// fetching them most of a PostgreSQL one's. The contract orders the
	// groups by date and professional only; the page places each
	// appointment by its own time. A group whose appointments all went
	// keeps its row, empty, and is skipped here (a filter on items made
	// PostgreSQL read each value twice). The column's name is the least of
	// the names its appointments keep (they differ only after a rename).
	const cols = `grid_date, professional_id, professional_name, items`
	read := `SELECT ` + cols + ` FROM grid_groups WHERE user_id = ? AND grid_date >= ? AND grid_date <= ?`
	args := []any{ownerID, q.From, q.To}
	if q.ProfessionalID != "" {
		// One professional's dates, each a seek of the key (owner, date,
		// professional): a range of dates would read every column's rows.
		read = `SELECT ` + cols + ` FROM grid_groups WHERE user_id = ? AND grid_date IN (?` +
			strings.Repeat(", ?", len(days)-1) + `) AND professional_id = ?`
		args = []any{ownerID}
		for _, d := range days {
			args = append(args, d.Format("2006-01-02"))
		}
		args = append(args, q.ProfessionalID)
	}
	read += ` ORDER BY grid_date, professional_id`
	// The owner's data version first, in the same round trip: the schedule
	// setup drawn is the one as of that version, never newer than the
	// appointments read after it.
	var version int64
	g.buf = gridBuffers.Get().(*gridBuffer)
	items := &g.buf.items
	reads := []db.Read{{Query: `SELECT COALESCE(MAX(version), 0) FROM data_versions WHERE user_id = ?`, Args: []any{ownerID},
		Row: func(scan func(...any) error) error { return scan(&version) }}, {Query: read, Args: args, Row: func(scan func(...any) error) error {
		var date, pro, name string
		if err := scan(&date, &pro, &name, items); err != nil {
			return err
		}
		if len(items.b) == 0 {
			return nil
		}
		if _, ok := booked[pro]; !ok {
			booked[pro] = name
		}
		g.addGroup(date, pro, items.b)
		return nil
	}}}
	err = db.ReadAll(ctx, s.DB, reads...)
	if err != nil {
		g.release()
		return nil, err
	}
	st, err := setupAt(ctx, ownerID, version)
	if err != nil {
		g.release()
		return nil, err
	}
	if q.ProfessionalID != "" && st.Professionals[q.ProfessionalID] == nil {
		g.release()
		return nil, errGridProfessional // another owner's (whose rows the read above never reaches), or none
	}
	// The blocks are the setup's, as of the same version (a block's change
	// bumps it), and the deposits are read only on a range that has one:
	// two statements fewer in the grid's round trip, for blocks most
	// ranges have few of and deposits most do not have (on PostgreSQL the
	// two were a sixth of the day grids a second it served).
	g.Blocks = st.BlocksIn(q.From, q.To)
	if st.HasDepositIn(q.From, q.To) {
		if err := db.ReadAll(ctx, s.DB, depositsRead(ownerID, q, &g.Deposits)); err != nil {
			g.release()
			return nil, err
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
	in := GridQuery{From: q.Get("from"), To: q.Get("to"), ProfessionalID: q.Get("professional")}
	if _, _, err := in.dates(); err != nil {
		return err
	}
	g, err := h.Svc.Grid(r.Context(), auth.UserID(r.Context()), h.Booking.OwnerSetupAt, in)
	if err != nil {
		return err
	}
	return g.Send(w)
}

// appendJSONString appends s as a JSON string: as it is when it is plain
// ASCII (a date, an id), else as encoding/json writes it.
func appendJSONString(out []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always encodes
			return append(out, b...)
		}
	}
	return append(append(append(out, '"'), s...), '"')
}

// Package booking is how clients book: the free times of a day and the
// bookable days of a month for (professional, service), and creating an
// appointment that can never overlap another of the same professional — the
// slot is recomputed inside the transaction that inserts it, serialised per
// professional on both databases.
package booking

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking/slots"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/schedule"
)

var (
	errProfile       = httpx.NewError(http.StatusNotFound, "profile_not_found", "Perfil não encontrado")
	errClosed        = httpx.NewError(http.StatusForbidden, "booking_closed", "Este profissional não está aceitando agendamentos online no momento. Entre em contato diretamente para agendar.")
	errChoice        = httpx.Validation("Profissional ou serviço indisponível. Recarregue a página e escolha novamente.")
	errDateTime      = httpx.Validation("Data ou horário inválido.")
	errRequired      = httpx.Validation("Por favor, preencha todos os campos obrigatórios.")
	errContact       = httpx.Validation("Informe um telefone ou e-mail para contato.")
	errPhone         = httpx.Validation("Informe um telefone válido, com DDD.")
	errTooLong       = httpx.Validation("O nome deve ter no máximo 120 caracteres e as observações, 1000.")
	errSlotTaken     = httpx.NewError(http.StatusConflict, "slot_unavailable", "Este profissional já possui agendamento neste horário. Por favor, escolha outro horário.")
	errTimePast      = httpx.NewError(http.StatusConflict, "slot_past", "Este horário já passou. Escolha outro horário.")
	errDayClosed     = httpx.NewError(http.StatusConflict, "day_closed", "O profissional não atende neste dia. Escolha outra data.")
	errOffHours      = httpx.NewError(http.StatusConflict, "slot_outside_hours", "Horário fora do expediente ou inválido. Escolha um dos horários disponíveis.")
	errMonth         = httpx.Validation("Mês inválido.")
	errZoneChanged   = httpx.NewError(http.StatusConflict, "settings_changed", "O fuso horário da agenda acabou de mudar. Confira o horário e tente novamente.")
	statusesThatHold = "('" + strings.Join(HoldingStatuses, "', '") + "')"
)

// HoldingStatuses are the statuses in which an appointment holds its time:
// the one list a hold decides with (Holds, readBusy). The busy_days
// triggers count the same ones; a schema test compares them on both engines.
var HoldingStatuses = []string{"confirmed", "completed", "no_show"}

func errBeyond(days int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "date_beyond_window", fmt.Sprintf("Escolha uma data dentro dos próximos %d dias.", days))
}

func errTooSoon(notice int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "slot_too_soon",
		fmt.Sprintf("Agendamentos online precisam de pelo menos %s de antecedência. Escolha um horário mais tarde.", brfmt.Minutes(notice)))
}

func errTooShort(minutes int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "slot_too_short",
		fmt.Sprintf("O horário selecionado não tem %d minutos disponíveis. Por favor, escolha outro.", minutes))
}

// Service computes times and books.
type Service struct {
	DB      *db.DB
	Clock   clock.Clock
	Mailer  *mail.Mailer // nil: no e-mail (tests of the rules alone)
	Queue   *jobs.Queue
	Notes   *notifications.Service
	BaseURL string
	// Setups keeps each owner's schedule setup per data version (nil: read
	// on every request).
	Setups *schedule.Cache
	// ReminderLead is how long before an appointment the client is reminded
	// (0: DefaultReminderLead).
	ReminderLead time.Duration
}

// Any is the professional id that asks for whichever professional is free.
const Any = "any"

// setup is the schedule setup of the owner with that public username, as
// of the owner's current data version (told to the answer cache).
func (s *Service) setup(ctx context.Context, username string) (*schedule.Setup, error) {
	username = profiles.NormalizeUsername(username)
	if l, ok := memo.Looked(ctx); ok && l.Username == username && s.Setups != nil {
		return s.Setups.Get(ctx, l.OwnerID, l.Version) // the answer cache read them for this request
	}
	id, version, err := memo.VersionOf(ctx, s.DB, username)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, errProfile
	}
	memo.Computed(ctx, id, version)
	if s.Setups == nil {
		return schedule.Load(ctx, s.DB, id)
	}
	return s.Setups.Get(ctx, id, version)
}

// public is what a public page's free times or bookable days are decided
// with: the owner's setup, the service, who may perform it, and their busy
// time of the dates asked.
type public struct {
	st   *schedule.Setup
	svc  *schedule.Service
	pros []*schedule.Professional
	busy BusyDays
}

// readPublic reads what the free times or bookable days of the dates span
// gives (from the setup) need. When the owner's setup kept in memory is
// still the current one — the version read in the same statement as the
// busy days says so — that is one round trip to the database; otherwise
// (something changed since, or the owner is new here) the version is read
// first, then the busy days of the current setup.
func (s *Service) readPublic(ctx context.Context, username, professionalID, serviceID string, span func(*schedule.Setup) (from, to time.Time)) (public, error) {
	username = profiles.NormalizeUsername(username)
	if _, looked := memo.Looked(ctx); !looked && s.Setups != nil {
		if st, version, ok := s.Setups.Current(username); ok {
			if svc, pros, err := choose(st, professionalID, serviceID); err == nil {
				from, to := span(st)
				id, now, busy, err := readVersionedBusy(ctx, s.DB, username, st.Loc, ids(pros), from, to)
				if err != nil {
					return public{}, err
				}
				if id == st.OwnerID && now == version {
					memo.Computed(ctx, id, version)
					addBlocks(busy, st.Loc, st.Blocked, from, to)
					return public{st, svc, pros, busy}, nil
				}
				busy.release()
			}
		}
	}
	st, err := s.setup(ctx, username)
	if err != nil {
		return public{}, err
	}
	svc, pros, err := choose(st, professionalID, serviceID)
	if err != nil {
		return public{}, err
	}
	from, to := span(st)
	busy, err := readBusyDays(ctx, s.DB, st, ids(pros), from, to)
	if err != nil {
		return public{}, err
	}
	return public{st, svc, pros, busy}, nil
}

// choose returns the active service and who may perform it: the named
// professional (active, and linked when the service names its
// professionals), or with Any every such professional, by name.
func choose(st *schedule.Setup, professionalID, serviceID string) (*schedule.Service, []*schedule.Professional, error) {
	svc := st.Services[serviceID]
	if svc == nil || !svc.Active {
		return nil, nil, errChoice
	}
	performers := st.Performers(serviceID)
	if professionalID == Any {
		if len(performers) == 0 {
			return nil, nil, errChoice
		}
		return svc, performers, nil
	}
	for _, p := range performers {
		if p.ID == professionalID {
			return svc, []*schedule.Professional{p}, nil
		}
	}
	return nil, nil, errChoice
}

// Holds reports whether an appointment of that status holds its time (only
// those count as busy in the slots).
func Holds(status string) bool {
	return slices.Contains(HoldingStatuses, status)
}

// BusyDays is each professional's holding appointments of a range of dates,
// in date and time order: one slice per professional, and where each date's
// run of it starts and ends, so a day's neighbourhood is a sub-slice.
type BusyDays map[string]*proBusy

type proBusy struct {
	all    []slots.Busy
	span   map[int64][2]int       // date (days since 1970-01-01) → [first, end) in all
	blocks map[int64][]slots.Busy // the owner's blocks of that professional (or the practice), by date
	taken  map[int64][]slots.Busy // held by appointments decided earlier in the same hold, by date
}

// dayNumber is a date (midnight UTC, as parsed) as days since 1970-01-01.
func dayNumber(date time.Time) int64 { return date.Unix() / 86400 }

// Near is a professional's time held on a date and the slots.ReachDays
// dates either side (a long service, a buffer or a clock change reaches
// across midnight): appointments, blocks, and what this hold has already
// given to others of the appointments it is deciding (Take).
func (b BusyDays) Near(professionalID string, date time.Time) []slots.Busy {
	p := b[professionalID]
	if p == nil {
		return nil
	}
	lo, hi := -1, -1
	n := dayNumber(date)
	for d := n - slots.ReachDays; d <= n+slots.ReachDays; d++ {
		if sp, ok := p.span[d]; ok {
			if lo < 0 {
				lo = sp[0]
			}
			hi = sp[1]
		}
	}
	var near []slots.Busy
	if lo >= 0 {
		near = p.all[lo:hi]
	}
	if blocks, taken := p.near(p.blocks, n), p.near(p.taken, n); len(blocks)+len(taken) > 0 {
		return append(append(slices.Clip(near), blocks...), taken...) // a copy: all stays as read
	}
	return near
}

// near is the intervals of by (blocks, or time taken) of the date n and the
// slots.ReachDays dates either side.
func (p *proBusy) near(by map[int64][]slots.Busy, n int64) []slots.Busy {
	if len(by) == 0 {
		return nil
	}
	var out []slots.Busy
	for d := n - slots.ReachDays; d <= n+slots.ReachDays; d++ {
		out = append(out, by[d]...)
	}
	return out
}

// Take counts an interval as held from now on in this decision: when one
// hold decides several appointments (a series, sessions moved together),
// each is decided against the others already decided as well as against
// everything else, so the set never collides with itself.
func (b BusyDays) Take(professionalID string, date time.Time, held slots.Busy) {
	p := b[professionalID]
	if p == nil {
		return
	}
	if p.taken == nil {
		p.taken = map[int64][]slots.Busy{}
	}
	p.taken[dayNumber(date)] = append(p.taken[dayNumber(date)], held)
}

// Blocked reports whether an appointment at start (with that duration and
// buffers) would reach into one of the owner's blocks of the professional.
func (b BusyDays) Blocked(professionalID string, date time.Time, start int64, duration, before, after int) bool {
	p := b[professionalID]
	return p != nil && slots.Collides(start, duration, before, after, p.near(p.blocks, dayNumber(date)))
}

// count is how many appointments a professional holds on a date.
func (b BusyDays) count(professionalID string, date time.Time) int {
	if p := b[professionalID]; p != nil {
		sp := p.span[dayNumber(date)]
		return sp[1] - sp[0]
	}
	return 0
}

// readBusy reads the holding appointments of professionals between two
// dates (inclusive), leaving out the appointments except, as instants in
// the owner's zone: one range read of appointments itself, answered from
// the appointments_professional_busy index alone, each date's appointments
// folded into one row as busy_days keeps them. This is what a hold decides
// with; every professional asked for has an entry, empty when free.
func readBusy(ctx context.Context, q db.Querier, ownerID string, loc *time.Location, professionalIDs []string, from, to time.Time, except ...string) (BusyDays, error) {
	others := ""
	if len(except) > 0 {
		others = ` AND id NOT IN (` + placeholders(len(except)) + `)`
	}
	out, err := readFolded(ctx, q, loc, professionalIDs, from, to, `SELECT professional_id, appointment_date,
			string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
		FROM appointments
		WHERE professional_id IN (%s) AND appointment_date >= ? AND appointment_date <= ? AND status IN `+statusesThatHold+others+`
		GROUP BY professional_id, appointment_date ORDER BY professional_id, appointment_date`, anys(except))
	if err != nil {
		return nil, err
	}
	return out, readBlocks(ctx, q, ownerID, loc, out, from, to)
}

// busyPool keeps the busy time read for one public request (a month of a
// busy practice is tens of kilobytes) for the next, instead of the
// collector: the public pages read it at a rate nothing else comes near.
var busyPool = sync.Pool{New: func() any { s := make([]slots.Busy, 0, 1024); return &s }}

// release gives the busy time back to the pool once nothing reads it: the
// caller's last use of b and every slice Near returned from it.
func (b BusyDays) release() {
	for _, p := range b {
		if p.all != nil && cap(p.all) <= 1<<16 {
			all := p.all[:0]
			busyPool.Put(&all)
		}
		p.all = nil
	}
}

// readBusyDays is readBusy for the public pages' free times and bookable
// days: the same time, as the busy_days triggers keep it, a row per date
// read by primary key (a month is ~31 rows, not ~1,000 appointments). A
// booking never decides with it: Hold reads appointments under the lock.
// The blocks come from the setup (read once per data version).
func readBusyDays(ctx context.Context, q db.Querier, st *schedule.Setup, professionalIDs []string, from, to time.Time) (BusyDays, error) {
	out, err := readFolded(ctx, q, st.Loc, professionalIDs, from, to, `SELECT professional_id, busy_date, list FROM busy_days
		WHERE professional_id IN (%s) AND busy_date >= ? AND busy_date <= ? ORDER BY professional_id, busy_date`, nil)
	if err != nil {
		return nil, err
	}
	addBlocks(out, st.Loc, st.Blocked, from, to)
	return out, nil
}

// readFolded runs a read of (professional, date, folded appointments) rows
// — query has %s for the professionals' placeholders, then the two dates,
// then more.
func readFolded(ctx context.Context, q db.Querier, loc *time.Location, professionalIDs []string, from, to time.Time, query string, more []any) (BusyDays, error) {
	out := newBusyDays(professionalIDs)
	if len(professionalIDs) == 0 {
		return out, nil
	}
	args := append(anys(professionalIDs), from.Format("2006-01-02"), to.Format("2006-01-02"))
	args = append(args, more...)
	rows, err := q.QueryContext(ctx, fmt.Sprintf(query, placeholders(len(professionalIDs))), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pro, date, list []byte // sql.RawBytes, reused row to row
	for rows.Next() {
		if err := rows.Scan((*sql.RawBytes)(&pro), (*sql.RawBytes)(&date), (*sql.RawBytes)(&list)); err != nil {
			return nil, err
		}
		out.fold(loc, pro, date, list)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	return out, nil
}

// newBusyDays has an empty entry for each professional: free until rows
// are folded in.
func newBusyDays(professionalIDs []string) BusyDays {
	out := make(BusyDays, len(professionalIDs))
	for _, id := range professionalIDs {
		out[id] = &proBusy{span: map[int64][2]int{}}
	}
	return out
}

// fold adds one row of a professional's date and its appointments, folded
// ("HH:MM d b a,..."), to the busy time; a row of a professional not asked
// for, or a date no slot can read, never collides. Each professional's rows
// must come in date order: Near takes a run of dates as one sub-slice.
func (b BusyDays) fold(loc *time.Location, pro, date, list []byte) {
	p := b[string(pro)]
	t, err := time.Parse("2006-01-02", string(date))
	if p == nil || err != nil {
		return
	}
	clock, day := slots.NewDayClock(t, loc), dayNumber(t)
	if p.all == nil {
		p.all = (*busyPool.Get().(*[]slots.Busy))[:0]
	}
	first := len(p.all)
	p.all = appendBusy(p.all, list, clock)
	if len(p.all) == first {
		return
	}
	slices.SortFunc(p.all[first:], func(a, b slots.Busy) int { return cmp.Compare(a.Start, b.Start) })
	p.span[day] = [2]int{first, len(p.all)}
}

// versionedBusySQL is readVersionedBusy's statement for n professionals.
func versionedBusySQL(n int) string {
	return `SELECT p.id, CAST(COALESCE(d.version, 0) AS TEXT), b.professional_id, b.busy_date, b.list
		FROM profiles p LEFT JOIN data_versions d ON d.user_id = p.id
		LEFT JOIN busy_days b ON b.professional_id IN (` + placeholders(n) + `) AND b.busy_date >= ? AND b.busy_date <= ?
		WHERE p.public_username = ? ORDER BY b.professional_id, b.busy_date`
}

// versionedBusyQueries are the statements for teams of 1 to 16, written
// once: a public read asks for one professional, or for a team.
var versionedBusyQueries = func() (q [16]string) {
	for n := range q {
		q[n] = versionedBusySQL(n + 1)
	}
	return q
}()

func versionedBusyQuery(n int) string {
	if n >= 1 && n <= len(versionedBusyQueries) {
		return versionedBusyQueries[n-1]
	}
	return versionedBusySQL(n)
}

// readVersionedBusy is the owner with that public username, their data
// version and the busy days of professionals (as readBusyDays, without the
// blocks), in one statement: the busy days are those of that version. No
// such owner: "" and nothing busy.
func readVersionedBusy(ctx context.Context, d *db.DB, username string, loc *time.Location, professionalIDs []string, from, to time.Time) (string, int64, BusyDays, error) {
	out := newBusyDays(professionalIDs)
	args := append(anys(professionalIDs), from.Format("2006-01-02"), to.Format("2006-01-02"), username)
	var owner string
	var version int64
	bad := false
	err := d.RawRows(ctx, versionedBusyQuery(len(professionalIDs)), args, func(cols [][]byte) {
		if owner == "" {
			owner = string(cols[0])
			v, err := strconv.ParseInt(string(cols[1]), 10, 64)
			version, bad = v, err != nil
		}
		if cols[2] != nil {
			out.fold(loc, cols[2], cols[3], cols[4])
		}
	})
	if err == nil && bad {
		err = fmt.Errorf("data version of %s: not a number", username)
	}
	if err != nil {
		out.release()
		return "", 0, nil, err
	}
	return owner, version, out, nil
}

// appendBusy parses a date's folded appointments ("HH:MM d b a,...") onto
// all, without allocating beyond all's growth; an entry no slot can read is
// left out (it never collides).
func appendBusy(all []slots.Busy, list []byte, clock slots.DayClock) []slots.Busy {
	all = slices.Grow(all, bytes.Count(list, []byte{','})+1)
	for len(list) > 0 {
		item := list
		if i := bytes.IndexByte(list, ','); i >= 0 {
			item, list = list[:i], list[i+1:]
		} else {
			list = nil
		}
		if len(item) < 5 || item[2] != ':' {
			continue
		}
		h, ok1 := number(item[0:2])
		m, ok2 := number(item[3:5])
		var n [3]int
		rest, ok := item[5:], ok1 && ok2 && h < 24 && m < 60
		for k := 0; k < 3 && ok; k++ {
			if len(rest) < 2 || rest[0] != ' ' {
				ok = false
				break
			}
			end := bytes.IndexByte(rest[1:], ' ') + 1
			if end == 0 {
				end = len(rest)
			}
			n[k], ok = number(rest[1:end])
			rest = rest[end:]
		}
		if !ok || len(rest) != 0 {
			continue
		}
		all = append(all, slots.Busy{Start: clock.At(h*60 + m), Duration: n[0], Before: n[1], After: n[2]})
	}
	return all
}

// number reads a non-negative decimal of at most 6 digits.
func number(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// readBlocks adds the owner's blocks of the dates to each professional's
// busy time: a professional's own, and the whole practice's to everyone.
func readBlocks(ctx context.Context, q db.Querier, ownerID string, loc *time.Location, out BusyDays, from, to time.Time) error {
	blocked, err := schedule.ReadBlocked(ctx, q, ownerID, from.Format("2006-01-02"), to.Format("2006-01-02"))
	if err != nil {
		return err
	}
	addBlocks(out, loc, blocked, from, to)
	return nil
}

// addBlocks adds the blocks of the dates from..to to each professional's
// busy time; a block no slot can read takes nothing.
func addBlocks(out BusyDays, loc *time.Location, blocked []schedule.Blocked, from, to time.Time) {
	first, last := from.Format("2006-01-02"), to.Format("2006-01-02")
	for _, bl := range blocked {
		if bl.Date < first || bl.Date > last {
			continue
		}
		t, err1 := time.Parse("2006-01-02", bl.Date)
		a, err2 := slots.ParseHHMM(bl.Start)
		z, err3 := slots.ParseHHMM(bl.End)
		if err1 != nil || err2 != nil || err3 != nil || z <= a {
			continue
		}
		start, until := slots.At(t, a, loc), slots.At(t, z, loc)
		b := slots.Busy{Start: start, Duration: int(until - start)}
		if b.Duration <= 0 {
			continue
		}
		for id, p := range out {
			if bl.ProfessionalID != "" && bl.ProfessionalID != id {
				continue
			}
			if p.blocks == nil {
				p.blocks = map[int64][]slots.Busy{}
			}
			p.blocks[dayNumber(t)] = append(p.blocks[dayNumber(t)], b)
		}
	}
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func ids(pros []*schedule.Professional) []string {
	out := make([]string, len(pros))
	for i, p := range pros {
		out[i] = p.ID
	}
	return out
}

// dayOf builds the slot rules of a date for a professional and service:
// their plan's windows, the service's duration, buffers and step, and the
// practice's notice.
func (s *Service) dayOf(st *schedule.Setup, p *schedule.Professional, svc *schedule.Service, date time.Time, busy []slots.Busy) (slots.Day, schedule.Plan) {
	plan := st.Plan(p.ID, date)
	return slots.Day{
		Windows: st.Spans(plan, date), Duration: svc.Duration, Before: svc.Before, After: svc.After,
		Step: st.Rules.Step(svc.Duration), Now: slots.NowMinute(s.Clock.Now()), Notice: st.Rules.MinNoticeMinutes, Busy: busy,
	}, plan
}

// bookable reports whether a date is inside the booking window: not before
// the owner's today, not after today plus the window.
func (s *Service) bookable(st *schedule.Setup, date time.Time) bool {
	ds := date.Format("2006-01-02")
	return ds >= slots.Today(s.Clock.Now(), st.Loc) && ds <= st.LastDay(s.Clock.Now())
}

func parseDate(s string) (time.Time, error) {
	t, err := slots.ParseDate(s)
	if err != nil {
		return t, errDateTime
	}
	return t, nil
}

// Times returns the free start times ("HH:MM") of a date; with Any, the
// union of the free times of everyone who performs the service.
func (s *Service) Times(ctx context.Context, username, professionalID, serviceID, date string) ([]string, error) {
	day, err := parseDate(date)
	if err != nil {
		return nil, err
	}
	v, err := s.readPublic(ctx, username, professionalID, serviceID, func(*schedule.Setup) (time.Time, time.Time) {
		return day.AddDate(0, 0, -slots.ReachDays), day.AddDate(0, 0, slots.ReachDays)
	})
	if err != nil {
		return nil, err
	}
	defer v.busy.release()
	st := v.st
	out := []string{}
	if !s.bookable(st, day) {
		return out, nil
	}
	var starts []int64
	for _, p := range v.pros {
		d, _ := s.dayOf(st, p, v.svc, day, v.busy.Near(p.ID, day))
		starts = append(starts, slots.Free(d)...)
	}
	slices.Sort(starts)
	return clockTimes(slices.Compact(starts), st.Loc), nil
}

// clockTimes are sorted free starts as the owner's HH:MM, each once (a
// clock change can give two instants one reading).
func clockTimes(starts []int64, loc *time.Location) []string {
	out := []string{}
	for _, t := range starts {
		if hm := slots.Clock(t, loc); len(out) == 0 || out[len(out)-1] != hm {
			out = append(out, hm)
		}
	}
	return out
}

// Days returns the dates of a month ("2006-01") that have at least one free
// time (for anyone, with Any): one range read of the month's appointments,
// the rules in memory.
func (s *Service) Days(ctx context.Context, username, professionalID, serviceID, month string) ([]string, error) {
	first, err := slots.ParseMonth(month)
	if err != nil {
		return nil, errMonth
	}
	// The month's dates up to the setup's last bookable day (days beyond
	// the booking window offer nothing: none at all when the month is).
	last := func(st *schedule.Setup) time.Time {
		last := first.AddDate(0, 1, -1)
		if horizon, _ := time.Parse("2006-01-02", st.LastDay(s.Clock.Now())); last.After(horizon) {
			return horizon
		}
		return last
	}
	v, err := s.readPublic(ctx, username, professionalID, serviceID, func(st *schedule.Setup) (time.Time, time.Time) {
		return first.AddDate(0, 0, -slots.ReachDays), last(st).AddDate(0, 0, slots.ReachDays)
	})
	if err != nil {
		return nil, err
	}
	defer v.busy.release()
	st := v.st
	out := []string{}
	today, end := slots.Today(s.Clock.Now(), st.Loc), last(st)
	for d := first; !d.After(end); d = d.AddDate(0, 0, 1) {
		if d.Format("2006-01-02") < today {
			continue
		}
		for _, p := range v.pros {
			if day, _ := s.dayOf(st, p, v.svc, d, v.busy.Near(p.ID, d)); slots.Any(day) {
				out = append(out, d.Format("2006-01-02"))
				break
			}
		}
	}
	return out, nil
}

// Input is a client's booking.
type Input struct {
	ProfessionalID string `json:"professionalId"`
	ServiceID      string `json:"serviceId"`
	Date           string `json:"date"`
	Time           string `json:"time"`
	ClientName     string `json:"clientName"`
	ClientEmail    string `json:"clientEmail"`
	ClientPhone    string `json:"clientPhone"`
	Notes          string `json:"notes"`
}

// Booked is what the confirmation card shows.
type Booked struct {
	ID               string `json:"id"`
	Date             string `json:"date"`
	Time             string `json:"time"`
	ProfessionalName string `json:"professionalName"`
	ServiceName      string `json:"serviceName"`
	Duration         int    `json:"duration"`
	PriceCents       int64  `json:"priceCents"`
	// CancelToken is the client's private token: the confirmation e-mail's
	// cancel link, and the card's invite download (ClientInvite). The page
	// that made the booking gets it; the owner's screens never show it.
	CancelToken string `json:"token"`
	// StartsAt is the instant (UTC), for the confirmation card's calendar
	// file; GoogleCalendarURL opens the event in Google Agenda, ready to save.
	StartsAt          time.Time `json:"startsAt"`
	GoogleCalendarURL string    `json:"googleCalendarUrl"`
	// Place is where it happens: the practice's address, or the video-call
	// link of a service held online (place.Of).
	Place place.Place `json:"place"`
}

func validate(in *Input) error {
	in.ClientName = strings.Join(strings.Fields(in.ClientName), " ")
	in.ClientEmail = strings.TrimSpace(in.ClientEmail)
	in.Notes = strings.TrimSpace(in.Notes)
	if in.ProfessionalID == "" || in.ServiceID == "" || in.Date == "" || in.Time == "" || in.ClientName == "" {
		return errRequired
	}
	if utf8.RuneCountInString(in.ClientName) > 120 || utf8.RuneCountInString(in.Notes) > 1000 {
		return errTooLong
	}
	if in.ClientEmail != "" {
		e, err := auth.NormalizeEmail(in.ClientEmail)
		if err != nil {
			return err
		}
		in.ClientEmail = e
	}
	if strings.TrimSpace(in.ClientPhone) != "" {
		p, ok := NormalizePhone(in.ClientPhone)
		if !ok {
			return errPhone
		}
		in.ClientPhone = p
	} else {
		in.ClientPhone = ""
	}
	if in.ClientEmail == "" && in.ClientPhone == "" {
		return errContact
	}
	return nil
}

// NormalizePhone keeps a Brazilian phone's digits: DDD + 8 or 9 digits, with
// or without the country code 55 — the one phone rule, brfmt.Phone.
func NormalizePhone(raw string) (string, bool) { return brfmt.Phone(raw) }

// Book creates a confirmed appointment if, inside the transaction, the slot
// is still free. It holds the time through Hold, so writers for one
// professional are serialised (SQLite: the single writer; PostgreSQL: row
// locks on the professionals) and of any number of racing requests for a
// slot exactly one wins. With Any, the professional is chosen under those
// locks: of those free at that time, the one with fewest appointments that
// day, ties by name.
//
// A refusal says what is wrong, checked in this order: a time already past,
// one sooner than the practice's notice, a date beyond the booking window, a
// closed day (weekday, day off, holiday), a time outside the working windows
// or off the step, and only then the spec's 'slot_unavailable' (another
// appointment at that time) or 'slot_too_short'.
func (s *Service) Book(ctx context.Context, username string, in Input) (*Booked, error) {
	if err := validate(&in); err != nil {
		return nil, err
	}
	day, err := parseDate(in.Date)
	if err != nil {
		return nil, err
	}
	minute, err := slots.ParseHHMM(in.Time)
	if err != nil {
		return nil, errDateTime
	}
	// The rules come from the owner's setup as of now (kept per data
	// version): what only the lock can settle — other appointments — is read
	// again inside the transaction, so the transaction stays short (on SQLite
	// every booking of every owner queues for it).
	st, err := s.setup(ctx, username)
	if err != nil {
		return nil, err
	}
	svc, pros, err := choose(st, in.ProfessionalID, in.ServiceID)
	if err != nil {
		return nil, err
	}
	start := slots.At(day, minute, st.Loc)
	if slots.Clock(start, st.Loc) != in.Time {
		return nil, errOffHours // a time the clocks skip that day
	}
	// The rules that do not depend on other appointments, before any lock.
	if err := s.refuse(st, pros, svc, day, start, nil); err != nil {
		return nil, err
	}
	ownerID := st.OwnerID
	// Read before the transaction (every booking of every owner queues for
	// it on SQLite): an address edited meanwhile is the owner's own race.
	where, err := place.Where(ctx, s.DB, ownerID, svc.ID)
	if err != nil {
		return nil, err
	}
	var out *Booked
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		var ownerEmail string
		if err := tx.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, ownerID).Scan(&ownerEmail); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errProfile
			}
			return err
		}
		if open, err := profiles.Open(ctx, tx, ownerID, st.TrialEnd, s.Clock.Now()); err != nil {
			return err
		} else if !open {
			return errClosed
		}
		var chosen *schedule.Professional
		lock := Lock{OwnerID: ownerID, Professionals: ids(pros), Date: day, Loc: st.Loc}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			var refused error
			for _, p := range pros {
				if busy[p.ID] == nil {
					continue // deleted since the setup was read: not locked, not bookable
				}
				d, plan := s.dayOf(st, p, svc, day, busy.Near(p.ID, day))
				if err := refusal(slots.Why(d, start), svc.Duration, st.Rules.MinNoticeMinutes, plan); err != nil {
					if refused == nil {
						refused = err
					}
					continue
				}
				if chosen == nil || busy.count(p.ID, day) < busy.count(chosen.ID, day) {
					chosen = p // pros are by name: the first of the fewest wins ties
				}
			}
			if chosen == nil {
				if len(pros) > 1 || refused == nil {
					return errSlotTaken
				}
				return refused
			}
			return nil
		}, func() error {
			token, hash := auth.OpaqueToken()
			local := time.Unix(start*60, 0).In(st.Loc)
			now := s.Clock.Now()
			out = &Booked{ID: uuid.NewString(), Date: in.Date, Time: in.Time, ProfessionalName: chosen.Name,
				ServiceName: svc.Name, Duration: svc.Duration, PriceCents: svc.PriceCents, CancelToken: token, StartsAt: local.UTC(), Place: where}
			out.GoogleCalendarURL = GoogleCalendarURL(fmt.Sprintf("%s com %s", svc.Name, chosen.Name), "Agendado pelo Agendei com "+st.Name+".",
				where.Text(), local, time.Duration(svc.Duration)*time.Minute)
			if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents,
			buffer_before, buffer_after, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)`,
				out.ID, ownerID, chosen.ID, svc.ID, chosen.Name, svc.Name, svc.Duration, svc.PriceCents, svc.Before, svc.After,
				in.ClientName, in.ClientEmail, in.ClientPhone, in.Notes, in.Date, out.Time, local.UTC(), hash, SearchKey(in.ClientName, in.ClientEmail), ClientKey(in.ClientPhone, in.ClientEmail), now, now); err != nil {
				return err
			}
			return s.afterBooking(ctx, tx, booked{Booked: out, ClientName: in.ClientName, ClientEmail: in.ClientEmail, ClientPhone: in.ClientPhone,
				OwnerID: ownerID, OwnerName: st.Name, OwnerEmail: ownerEmail, Start: local})
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// refuse checks a chosen start against the rules, with the given busy
// appointments (nil: the rules that do not depend on other appointments):
// nil when at least one of the professionals could take it.
func (s *Service) refuse(st *schedule.Setup, pros []*schedule.Professional, svc *schedule.Service, day time.Time, start int64, busy BusyDays) error {
	if start < slots.NowMinute(s.Clock.Now()) {
		return errTimePast
	}
	if !s.bookable(st, day) {
		if day.Format("2006-01-02") > st.LastDay(s.Clock.Now()) {
			return errBeyond(st.Rules.BookingWindowDays)
		}
		return errTimePast
	}
	var first error
	for _, p := range pros {
		d, plan := s.dayOf(st, p, svc, day, busy.Near(p.ID, day))
		err := refusal(slots.Why(d, start), svc.Duration, st.Rules.MinNoticeMinutes, plan)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// refusal is the answer to a start time that the slot engine does not offer.
func refusal(why slots.Reason, duration, notice int, plan schedule.Plan) error {
	switch why {
	case slots.Offered:
		return nil
	case slots.Past:
		return errTimePast
	case slots.TooSoon:
		return errTooSoon(notice)
	case slots.Closed:
		if plan.Closed == schedule.ClosedDayOff || plan.Closed == schedule.ClosedHoliday {
			return httpx.NewError(http.StatusConflict, "day_closed", fmt.Sprintf("O profissional não atende neste dia (%s). Escolha outra data.", plan.Label))
		}
		return errDayClosed
	case slots.OffHours:
		return errOffHours
	case slots.Taken:
		return errSlotTaken
	default:
		return errTooShort(duration)
	}
}

// Lock is the time some appointment is to hold: the professionals who might
// hold it (one, or with "any professional" several), of one owner's date.
type Lock struct {
	OwnerID string
	// Professionals are locked, in id order; "" stands for a deleted
	// professional, with whom nothing can collide.
	Professionals []string
	Date          time.Time // midnight UTC of the date, in the owner's calendar
	// Until is the last date when the time spans several dates (a series);
	// zero: Date alone.
	Until time.Time
	Loc   *time.Location
	// Except are the appointments that are to hold the time, when they
	// exist already (a re-confirm, a move, a series' sessions moved
	// together): they never collide with themselves.
	Except []string
}

// Hold is the one way an appointment comes to hold time: a public booking
// (for one professional or any), an owner's re-confirm (later a move, a
// series) all call it, and no other code makes an appointment hold time.
// Inside tx it locks the professionals' rows in id order, which serialises
// every writer of their time without deadlocks (SQLite: the single writer
// already; PostgreSQL: FOR UPDATE, and each later statement of a READ
// COMMITTED transaction sees what the previous holder of the lock
// committed), reads their holding appointments and blocks of the dates and
// the slots.ReachDays dates either side, lets decide choose with them, and
// runs write. When decide settles several appointments (a series, sessions
// moved together), it takes each one's time as it goes (BusyDays.Take), so
// the set is checked against itself as well as everything else.
func Hold(ctx context.Context, tx *db.Tx, l Lock, decide func(busy BusyDays) error, write func() error) error {
	var pros []string
	for _, id := range l.Professionals {
		if id != "" {
			pros = append(pros, id)
		}
	}
	slices.Sort(pros)
	busy := BusyDays{}
	if len(pros) > 0 {
		args := append([]any{l.OwnerID}, anys(pros)...)
		var locked []string
		err := db.Each(ctx, tx, `SELECT id FROM professionals WHERE user_id = ? AND id IN (`+placeholders(len(pros))+`) ORDER BY id`+tx.LockRow(), args, func(r *sql.Rows) error {
			var id string
			locked = append(locked, id)
			return r.Scan(&locked[len(locked)-1])
		})
		if err != nil {
			return err
		}
		if len(locked) == 0 {
			return errChoice
		}
		// The zone the caller computed instants in must still be the owner's:
		// a zone change (Rezone) takes these same locks, so after it commits a
		// hold that read the old zone sees the new one here, and is refused
		// rather than writing an instant of the old zone.
		var zone string
		if err := tx.QueryRowContext(ctx, `SELECT time_zone FROM profiles WHERE id = ?`, l.OwnerID).Scan(&zone); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if l.Loc != nil && tz.Load(zone).String() != l.Loc.String() {
			return errZoneChanged
		}
		last := l.Date
		if l.Until.After(last) {
			last = l.Until
		}
		busy, err = readBusy(ctx, tx, l.OwnerID, l.Loc, locked, l.Date.AddDate(0, 0, -slots.ReachDays), last.AddDate(0, 0, slots.ReachDays), l.Except...)
		if err != nil {
			return err
		}
	}
	if err := decide(busy); err != nil {
		return err
	}
	return write()
}

// Busy time: each professional's holding appointments and blocks of a
// range of dates, read in one range read, and what a decision of a date sees
// of them (the date and its neighbours).

package booking

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

// HoldingStatuses are the statuses in which an appointment holds its time:
// the one list a hold decides with (Holds, readBusy). The busy_days
// triggers count the same ones; a schema test compares them on both engines.
var HoldingStatuses = []string{StatusConfirmed, StatusAwaitingDeposit, "completed", "no_show"}

// The statuses of an upcoming appointment that holds its time: confirmed,
// or a hold awaiting its deposit ("Aguardando sinal", issue 39) — held like
// a confirmed one, counted as confirmed nowhere (metrics, "Receita
// agendada", reminders) until ConfirmDeposit makes it so.
const (
	StatusConfirmed       = "confirmed"
	StatusAwaitingDeposit = "awaiting_deposit"
)

// Active reports whether an appointment is still ahead of its outcome:
// confirmed, or a hold awaiting its deposit (which a client may still move
// or cancel, and the owner cancel, like a confirmed one).
func Active(status string) bool {
	return status == StatusConfirmed || status == StatusAwaitingDeposit
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
	// away is the busy time imported from the professional's own calendar
	// (issue 42), by each date it touches: busy for a client like a block,
	// but an owner may book over it with a yes (Personal).
	away map[int64][]slots.Busy
	// shared is the setup's imported busy time by date (decision 0010),
	// read-only, of which the dates first..last count, as if in away.
	shared      map[int64][]slots.Busy
	first, last int64
}

// NearBufferOff turns NearInto's reuse off in Days (a new slice per date
// and professional, as Near): a benchmark switch (AGENDEI_BENCH_DISABLE=
// near-buffer, docs/decisions/0010-imported-busy-by-date.md), never set in
// production.
var NearBufferOff atomic.Bool

// dayNumber is a date (midnight UTC, as parsed) as days since 1970-01-01.
func dayNumber(date time.Time) int64 { return date.Unix() / 86400 }

// Near is a professional's time held on a date and the slots.ReachDays
// dates either side (a long service, a buffer or a clock change reaches
// across midnight): appointments, blocks, imported busy time, and what this hold has already
// given to others of the appointments it is deciding (Take).
func (b BusyDays) Near(professionalID string, date time.Time) []slots.Busy {
	return b.nearOf(nil, professionalID, date, true)
}

// NearInto is Near copied, when it must be, into *buf (grown when short,
// overwritten each time) rather than a new slice: for a caller that asks
// date after date and is done with each answer before the next (a month of
// bookable days, issue 42). Without a copy to make, it is Near's sub-slice
// of what was read, and *buf stays as it was.
func (b BusyDays) NearInto(buf *[]slots.Busy, professionalID string, date time.Time) []slots.Busy {
	return b.nearOf(buf, professionalID, date, true)
}

// held is Near without the imported busy time: what even an owner may not
// book over.
func (b BusyDays) held(professionalID string, date time.Time) []slots.Busy {
	return b.nearOf(nil, professionalID, date, false)
}

func (b BusyDays) nearOf(buf *[]slots.Busy, professionalID string, date time.Time, withAway bool) []slots.Busy {
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
	// One copy (all stays as read), sized at once: a month of bookable
	// days asks for every date of every professional (issue 42).
	d0, d1 := n-slots.ReachDays, n+slots.ReachDays
	size := len(near) + count(p.blocks, d0, d1) + count(p.taken, d0, d1)
	if withAway {
		size += count(p.away, d0, d1) + count(p.shared, max(d0, p.first), min(d1, p.last))
	}
	if size == len(near) {
		return near
	}
	var out []slots.Busy
	if buf != nil && cap(*buf) >= size {
		out = (*buf)[:0]
	} else {
		out = make([]slots.Busy, 0, size)
		if buf != nil {
			*buf = out
		}
	}
	out = append(out, near...)
	out = appendDays(appendDays(out, p.blocks, d0, d1), p.taken, d0, d1)
	if withAway {
		out = p.appendAway(out, n)
	}
	return out
}

// Personal reports whether an appointment at start (with that duration and
// buffers) would reach into busy time imported from the professional's own
// calendar.
func (b BusyDays) Personal(professionalID string, date time.Time, start int64, duration, before, after int) bool {
	p := b[professionalID]
	return p != nil && slots.Collides(start, duration, before, after, p.appendAway(nil, dayNumber(date)))
}

// appendAway appends the imported busy time of the date n and the
// slots.ReachDays dates either side: the request's own (away) and the
// setup's of the request's dates (shared).
func (p *proBusy) appendAway(out []slots.Busy, n int64) []slots.Busy {
	out = appendDays(out, p.away, n-slots.ReachDays, n+slots.ReachDays)
	return appendDays(out, p.shared, max(n-slots.ReachDays, p.first), min(n+slots.ReachDays, p.last))
}

// near is the intervals of by (blocks, or time taken) of the date n and the
// slots.ReachDays dates either side.
func (p *proBusy) near(by map[int64][]slots.Busy, n int64) []slots.Busy {
	return appendDays(nil, by, n-slots.ReachDays, n+slots.ReachDays)
}

// appendDays appends the intervals of by of the dates lo..hi.
func appendDays(out []slots.Busy, by map[int64][]slots.Busy, lo, hi int64) []slots.Busy {
	if len(by) == 0 {
		return out
	}
	for d := lo; d <= hi; d++ {
		out = append(out, by[d]...)
	}
	return out
}

// count is how many intervals by has of the dates lo..hi.
func count(by map[int64][]slots.Busy, lo, hi int64) int {
	if len(by) == 0 {
		return 0
	}
	n := 0
	for d := lo; d <= hi; d++ {
		n += len(by[d])
	}
	return n
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
	if schedule.AwayByDayOff.Load() {
		addAway(out, st.Loc, st.Away, from, to)
		return out, nil
	}
	addAwayDays(out, st.AwayByDay(), st.Loc, from, to)
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
	first := len(p.all)
	p.all = appendBusy(p.all, list, clock)
	if len(p.all) == first {
		return
	}
	slices.SortFunc(p.all[first:], func(a, b slots.Busy) int { return cmp.Compare(a.Start, b.Start) })
	p.span[day] = [2]int{first, len(p.all)}
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
	// The imported busy time as the last import left it: read under the
	// hold's lock, which an import takes too, so a time an import committed
	// over is never held after it.
	away, err := schedule.ReadAway(ctx, q, ownerID, from.AddDate(0, 0, -1), to.AddDate(0, 0, 2))
	if err != nil {
		return err
	}
	addAway(out, loc, away, from, to)
	return nil
}

// addAway adds imported busy intervals to their professional's busy time,
// under each date of from..to (the owner's) that the interval touches.
func addAway(out BusyDays, loc *time.Location, away []schedule.Away, from, to time.Time) {
	first, last := dayNumber(from), dayNumber(to)
	for _, a := range away {
		p := out[a.ProfessionalID]
		if p == nil {
			continue
		}
		b, d0, d1, ok := schedule.AwaySpan(a, loc)
		if !ok {
			continue
		}
		for d := max(d0, first); d <= min(d1, last); d++ {
			if p.away == nil {
				p.away = map[int64][]slots.Busy{}
			}
			p.away[d] = append(p.away[d], b)
		}
	}
}

// addAwayDays is addAway from the setup's imported busy time already split
// by date (decision 0010): each professional points at its dates, to be
// read for the dates from..to, whatever the number of intervals. The
// setup's index is shared by every request: only ever read.
func addAwayDays(out BusyDays, ix *schedule.AwayDays, loc *time.Location, from, to time.Time) {
	first, last := dayNumber(from), dayNumber(to)
	for id, p := range out {
		if days := ix.Days[id]; len(days) > 0 {
			p.shared, p.first, p.last = days, first, last
		}
	}
	addAway(out, loc, ix.Long, from, to)
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

// anys are strings as query arguments.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, v := range ss {
		out[i] = v
	}
	return out
}

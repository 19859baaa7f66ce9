// Package schedule is when a practice works: the owner's setup that decides
// every slot (weekly windows of the practice and of professionals who keep
// their own, days off, holidays, services with their buffers, and the
// booking rules), read in one go and kept per data version, and the plan of
// one date for one professional. The slot engine (internal/slots) decides the
// times inside that plan.
package schedule

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/slots"
)

// Rules are the practice's booking rules.
type Rules struct {
	SlotStep          int `json:"slotStep"`          // 15, 30, 60, or 0: the service's duration
	MinNoticeMinutes  int `json:"minNoticeMinutes"`  // public bookings start at least this long from now
	BookingWindowDays int `json:"bookingWindowDays"` // public bookings up to today plus this many days
	CancelCutoffHours int `json:"cancelCutoffHours"` // the cancel link works until this long before
}

// DefaultRules are an owner's rules until changed.
var DefaultRules = Rules{SlotStep: slots.DefaultStep, MinNoticeMinutes: 0, BookingWindowDays: 90, CancelCutoffHours: 0}

// Step is the distance between offered times for a service of that duration.
func (r Rules) Step(duration int) int {
	if r.SlotStep <= 0 {
		return duration
	}
	return r.SlotStep
}

// Service is a service as the slots need it.
type Service struct {
	ID, Name      string
	Duration      int
	PriceCents    int64
	Before, After int
	Active        bool
	Professionals []string // who performs it; empty: every professional
}

// Professional is a professional as the slots need them.
type Professional struct {
	ID, Name string
	Active   bool
	OwnHours bool
	// Rank is their place in the team's list (GET /api/professionals:
	// newest first), the order the agenda's columns follow.
	Rank int
}

type dayOff struct {
	professionalID string // "": the whole practice
	start, end     string // YYYY-MM-DD, inclusive
	reason         string
}

type custom struct {
	id, name   string
	month, day int
}

// Week is the windows of each weekday (Sunday first), in minutes from midnight.
type Week [7][][2]int

// Setup is everything of one owner that decides slots.
type Setup struct {
	OwnerID  string
	Name     string
	Username string
	Loc      *time.Location
	TrialEnd *time.Time
	Rules    Rules

	Services      map[string]*Service
	Professionals map[string]*Professional

	practice Week
	own      map[string]Week // professionals with their own week
	daysOff  []dayOff
	open     map[string]bool // national holidays the practice works on
	custom   []custom

	// Blocked are the owner's blocks (a practice keeps tens or hundreds),
	// for the public pages' free times; a hold reads blocks itself, inside
	// its transaction. Only what decides slots: the agenda reads a block's
	// reason and kept appointments itself (BlocksRead).
	Blocked []Blocked
	// Away is the busy time imported from the professionals' own calendars
	// (busy_imported, issue 42), for the public pages' free times like
	// Blocked; a hold reads it itself, under the lock (ReadAway).
	Away []Away

	awayOnce sync.Once
	awayDays AwayDays // Away by local date, built once (AwayByDay)
}

// AwayDays is the imported busy time of each professional split by the
// owner's local dates it touches (days since 1970-01-01 of the date at
// midnight UTC), so that a request looks up its dates rather than walk and
// convert every interval. An interval longer than AwayIndexedDays dates is
// left in Long, for a reader to walk (rare: a long absence), so bad data
// never makes the index large. Read-only once built: it is shared by every
// request of the setup.
type AwayDays struct {
	Days map[string]map[int64][]slots.Busy // professional → date → intervals
	Long []Away
}

// AwayIndexedDays is the most dates an interval of AwayDays.Days touches.
const AwayIndexedDays = 8

// AwayByDayOff turns AwayDays off: a benchmark switch (AGENDEI_BENCH_DISABLE=
// away-days, docs/decisions/0010-imported-busy-by-date.md), never set in production.
// Off, a public read walks Away on every request as before.
var AwayByDayOff atomic.Bool

// AwayByDay is the setup's imported busy time by date, built on first use
// (once per setup, hence once per data version of a cached one).
func (s *Setup) AwayByDay() *AwayDays {
	s.awayOnce.Do(func() {
		s.awayDays = AwayDays{Days: map[string]map[int64][]slots.Busy{}}
		for _, a := range s.Away {
			b, d0, d1, ok := AwaySpan(a, s.Loc)
			switch {
			case !ok:
			case d1-d0 >= AwayIndexedDays:
				s.awayDays.Long = append(s.awayDays.Long, a)
			default:
				days := s.awayDays.Days[a.ProfessionalID]
				if days == nil {
					days = map[int64][]slots.Busy{}
					s.awayDays.Days[a.ProfessionalID] = days
				}
				for d := d0; d <= d1; d++ {
					days[d] = append(days[d], b)
				}
			}
		}
		for _, days := range s.awayDays.Days {
			for d, v := range days {
				days[d] = slices.Clip(v) // an append by a reader copies
			}
		}
	})
	return &s.awayDays
}

// AwaySpan is an imported interval as busy time (whole minutes covering
// it) and the first and last of the owner's local dates it touches (days
// since 1970-01-01 of the date at midnight UTC); !ok: an empty interval,
// busy nowhere.
func AwaySpan(a Away, loc *time.Location) (b slots.Busy, first, last int64, ok bool) {
	if !a.End.After(a.Start) {
		return slots.Busy{}, 0, 0, false
	}
	if loc == nil {
		loc = time.UTC
	}
	start := a.Start.Unix() / 60
	end := (a.End.Unix() + 59) / 60
	s, e := a.Start.In(loc), a.End.Add(-time.Nanosecond).In(loc)
	first = time.Date(s.Year(), s.Month(), s.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
	last = time.Date(e.Year(), e.Month(), e.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
	return slots.Busy{Start: start, Duration: int(end - start)}, first, last, true
}

// Away is one imported busy interval of a professional: the instants it
// starts and ends.
type Away struct {
	ProfessionalID string
	Start, End     time.Time
}

// ReadAway reads the imported busy time of the owner's professionals that
// overlaps from..to.
func ReadAway(ctx context.Context, q db.Querier, ownerID string, from, to time.Time) ([]Away, error) {
	var out []Away
	err := db.ReadAll(ctx, q, awayRead(ownerID, from, to, &out))
	return out, err
}

func awayRead(ownerID string, from, to time.Time, out *[]Away) db.Read {
	return db.Read{Query: `SELECT professional_id, starts_at, ends_at FROM busy_imported WHERE user_id = ? AND starts_at < ? AND ends_at > ?`,
		Args: []any{ownerID, to.UTC(), from.UTC()}, Row: func(scan func(...any) error) error {
			var a Away
			if err := scan(&a.ProfessionalID, &a.Start, &a.End); err != nil {
				return err
			}
			*out = append(*out, a)
			return nil
		}}
}

// Blocked is a block of one date: ProfessionalID "" is the whole practice.
type Blocked struct{ ProfessionalID, Date, Start, End string }

// ReadBlocked reads the owner's blocks of the dates first..last
// ("YYYY-MM-DD", inclusive).
func ReadBlocked(ctx context.Context, q db.Querier, ownerID, first, last string) ([]Blocked, error) {
	var out []Blocked
	err := db.ReadAll(ctx, q, blockedRead(ownerID, first, last, &out))
	return out, err
}

func blockedRead(ownerID, first, last string, out *[]Blocked) db.Read {
	return db.Read{Query: `SELECT COALESCE(professional_id, ''), block_date, start_time, end_time FROM blocks WHERE user_id = ? AND block_date >= ? AND block_date <= ?`,
		Args: []any{ownerID, first, last}, Row: func(scan func(...any) error) error {
			var b Blocked
			if err := scan(&b.ProfessionalID, &b.Date, &b.Start, &b.End); err != nil {
				return err
			}
			*out = append(*out, b)
			return nil
		}}
}

// Load reads an owner's setup (on q: the database, or a transaction that
// must see its own writes), in one round trip on PostgreSQL. Missing owner:
// sql.ErrNoRows.
func Load(ctx context.Context, q db.Querier, ownerID string) (*Setup, error) {
	s := &Setup{OwnerID: ownerID, Services: map[string]*Service{}, Professionals: map[string]*Professional{}, own: map[string]Week{}, open: map[string]bool{}}
	var zone string
	var trial sql.NullTime
	found := false
	owner := []any{ownerID}
	err := db.ReadAll(ctx, q,
		db.Read{Query: `SELECT name, COALESCE(public_username, ''), time_zone, trial_ends_at, slot_step, min_notice_minutes, booking_window_days, cancel_cutoff_hours
			FROM profiles WHERE id = ?`, Args: owner, Row: func(scan func(...any) error) error {
			found = true
			return scan(&s.Name, &s.Username, &zone, &trial, &s.Rules.SlotStep, &s.Rules.MinNoticeMinutes, &s.Rules.BookingWindowDays, &s.Rules.CancelCutoffHours)
		}},
		db.Read{Query: `SELECT id, name, duration, price_cents, buffer_before, buffer_after, active FROM services WHERE user_id = ?`, Args: owner,
			Row: func(scan func(...any) error) error {
				v := &Service{}
				if err := scan(&v.ID, &v.Name, &v.Duration, &v.PriceCents, &v.Before, &v.After, &v.Active); err != nil {
					return err
				}
				s.Services[v.ID] = v
				return nil
			}},
		db.Read{Query: `SELECT id, name, active, own_hours FROM professionals WHERE user_id = ? ORDER BY created_at DESC, id`, Args: owner,
			Row: func(scan func(...any) error) error {
				p := &Professional{Rank: len(s.Professionals)}
				if err := scan(&p.ID, &p.Name, &p.Active, &p.OwnHours); err != nil {
					return err
				}
				s.Professionals[p.ID] = p
				return nil
			}},
		db.Read{Query: `SELECT sp.service_id, sp.professional_id FROM service_professionals sp JOIN services s ON s.id = sp.service_id WHERE s.user_id = ? ORDER BY sp.professional_id`, Args: owner,
			Row: func(scan func(...any) error) error {
				var svc, pro string
				if err := scan(&svc, &pro); err != nil {
					return err
				}
				if v := s.Services[svc]; v != nil {
					v.Professionals = append(v.Professionals, pro)
				}
				return nil
			}},
		db.Read{Query: `SELECT COALESCE(professional_id, ''), day_of_week, start_time, end_time FROM availability WHERE user_id = ? ORDER BY start_time`, Args: owner,
			Row: func(scan func(...any) error) error {
				var pro, start, end string
				var d int
				if err := scan(&pro, &d, &start, &end); err != nil {
					return err
				}
				a, err1 := slots.ParseHHMM(start)
				b, err2 := slots.ParseHHMM(end)
				if d < 0 || d > 6 || err1 != nil || err2 != nil || b <= a {
					return nil // a row no window can read opens nothing
				}
				if pro == "" {
					s.practice[d] = append(s.practice[d], [2]int{a, b})
				} else {
					w := s.own[pro]
					w[d] = append(w[d], [2]int{a, b})
					s.own[pro] = w
				}
				return nil
			}},
		blockedRead(ownerID, "0000-01-01", "9999-12-31", &s.Blocked), // every date
		// Every imported interval: an import keeps only a window ahead.
		awayRead(ownerID, time.Unix(0, 0), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), &s.Away),
		db.Read{Query: `SELECT COALESCE(professional_id, ''), start_date, end_date, reason FROM days_off WHERE user_id = ?`, Args: owner,
			Row: func(scan func(...any) error) error {
				var d dayOff
				if err := scan(&d.professionalID, &d.start, &d.end, &d.reason); err != nil {
					return err
				}
				s.daysOff = append(s.daysOff, d)
				return nil
			}},
		db.Read{Query: `SELECT holiday_key FROM open_holidays WHERE user_id = ?`, Args: owner,
			Row: func(scan func(...any) error) error {
				var k string
				if err := scan(&k); err != nil {
					return err
				}
				s.open[k] = true
				return nil
			}},
		db.Read{Query: `SELECT id, name, month, day FROM custom_holidays WHERE user_id = ? ORDER BY month, day, name`, Args: owner,
			Row: func(scan func(...any) error) error {
				var c custom
				if err := scan(&c.id, &c.name, &c.month, &c.day); err != nil {
					return err
				}
				s.custom = append(s.custom, c)
				return nil
			}},
	)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, sql.ErrNoRows
	}
	s.Loc = tz.Load(zone)
	if trial.Valid {
		s.TrialEnd = &trial.Time
	}
	return s, nil
}

// Closed says why a date has no windows.
type Closed string

const (
	Open          Closed = ""
	ClosedWeekday Closed = "weekday" // the weekday has no hours
	ClosedDayOff  Closed = "day_off"
	ClosedHoliday Closed = "holiday"
)

// Plan is one date of one professional (or of the practice): the windows in
// minutes from midnight, or why there are none, with the label the agenda shows.
type Plan struct {
	Windows [][2]int
	Closed  Closed
	Label   string // 'Fechado', 'Folga' or 'Folga: {reason}', a holiday's name
}

// Holiday is the holiday closing a date, if any: the owner's own, or a
// national one the practice has not opened.
func (s *Setup) Holiday(date time.Time) (Holiday, bool) {
	for _, c := range s.custom {
		if int(date.Month()) == c.month && date.Day() == c.day {
			return Holiday{Key: "custom-" + c.id, Name: c.name, Date: date}, true
		}
	}
	for _, h := range National(date.Year()) {
		if h.Date.Equal(date) && !s.open[h.Key] {
			return h, true
		}
	}
	return Holiday{}, false
}

// Plan is the date's plan for a professional ("": the practice's own week).
// A holiday closes the date, then a day off of the practice or of that
// professional; otherwise the windows of their weekday.
func (s *Setup) Plan(professionalID string, date time.Time) Plan {
	if h, ok := s.Holiday(date); ok {
		return Plan{Closed: ClosedHoliday, Label: h.Name}
	}
	ds := date.Format("2006-01-02")
	for _, d := range s.daysOff {
		if (d.professionalID == "" || d.professionalID == professionalID) && d.start <= ds && ds <= d.end {
			label := "Folga"
			if d.reason != "" {
				label = "Folga: " + d.reason
			}
			return Plan{Closed: ClosedDayOff, Label: label}
		}
	}
	week := s.practice
	if p := s.Professionals[professionalID]; p != nil && p.OwnHours {
		week = s.own[professionalID]
	}
	ws := week[int(date.Weekday())]
	if len(ws) == 0 {
		return Plan{Closed: ClosedWeekday, Label: "Fechado"}
	}
	return Plan{Windows: ws}
}

// Spans are a plan's windows as instants of that date in the owner's zone.
func (s *Setup) Spans(p Plan, date time.Time) []slots.Span {
	out := make([]slots.Span, 0, len(p.Windows))
	for _, w := range p.Windows {
		out = append(out, slots.Span{Start: slots.At(date, w[0], s.Loc), End: slots.At(date, w[1], s.Loc)})
	}
	return out
}

// Performers are the active professionals who perform an active service,
// by name: those it names, or every active professional when it names none.
func (s *Setup) Performers(serviceID string) []*Professional {
	svc := s.Services[serviceID]
	if svc == nil || !svc.Active {
		return nil
	}
	var out []*Professional
	if len(svc.Professionals) > 0 {
		for _, id := range svc.Professionals {
			if p := s.Professionals[id]; p != nil && p.Active {
				out = append(out, p)
			}
		}
	} else {
		for _, p := range s.Professionals {
			if p.Active {
				out = append(out, p)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// LastDay is the owner's last bookable date ("2006-01-02") at now: the
// owner's today plus the booking window.
func (s *Setup) LastDay(now time.Time) string { return LastDay(now, s.Loc, s.Rules.BookingWindowDays) }

// LastDay is the last date a booking window of that many days reaches from
// now, in a zone: today plus the window.
func LastDay(now time.Time, loc *time.Location, windowDays int) string {
	local := now.In(loc)
	return time.Date(local.Year(), local.Month(), local.Day()+windowDays, 12, 0, 0, 0, time.UTC).Format("2006-01-02")
}

// Cache keeps each owner's setup for the data version it was read at
// (internal/platform/memo's versions: every write to what a setup holds
// bumps it), so a page of free times reads it once per version rather than
// on every request. Bounded: past max owners the oldest entry goes.
type Cache struct {
	DB  *db.DB
	Max int // 0: 4096 owners

	mu      sync.Mutex
	m       map[string]cached
	order   []string
	loading singleflight.Group // one read of an owner's setup at a version at a time
}

type cached struct {
	version int64
	setup   *Setup
}

// Get returns the owner's setup at a version, reading it when the kept one is older.
func (c *Cache) Get(ctx context.Context, ownerID string, version int64) (*Setup, error) {
	c.mu.Lock()
	e, ok := c.m[ownerID]
	c.mu.Unlock()
	if ok && e.version == version {
		return e.setup, nil
	}
	// The requests that find a setup out of date at once (many visitors of
	// one owner after a change) share one read of it.
	v, err, _ := c.loading.Do(ownerID+"@"+strconv.FormatInt(version, 10), func() (any, error) {
		s, err := Load(context.WithoutCancel(ctx), c.DB, ownerID)
		if err == nil {
			c.keep(ownerID, version, s)
		}
		return s, err
	})
	if err != nil {
		return nil, err
	}
	return v.(*Setup), nil
}

// keep keeps the owner's setup read at a version, unless a newer one is kept.
func (c *Cache) keep(ownerID string, version int64, s *Setup) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cached{}
	}
	if _, had := c.m[ownerID]; !had {
		c.order = append(c.order, ownerID)
		limit := c.Max
		if limit <= 0 {
			limit = 4096
		}
		for len(c.order) > limit {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
	}
	if cur, had := c.m[ownerID]; !had || cur.version <= version {
		c.m[ownerID] = cached{version: version, setup: s}
	}
}

// String names a plan for logs and tests.
func (p Plan) String() string {
	if p.Closed != Open {
		return fmt.Sprintf("%s (%s)", p.Closed, p.Label)
	}
	var parts []string
	for _, w := range p.Windows {
		parts = append(parts, slots.FormatHHMM(w[0])+"–"+slots.FormatHHMM(w[1]))
	}
	return strings.Join(parts, ", ")
}

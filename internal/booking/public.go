// Public reads: the free times of a date and the bookable days of a month
// that a public booking page asks for, from the owner's setup and the busy
// time of the dates around them.

package booking

import (
	"context"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/platform/versions"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

// setup is the schedule setup of the owner a public page names, as of the
// data version read with the owner (by the handler, or the answer cache
// for this request, which keeps the answer under that version).
func (s *Service) setup(ctx context.Context, owner versions.Owner) (*schedule.Setup, error) {
	if owner.ID == "" {
		return nil, errProfile
	}
	if s.Setups == nil {
		return schedule.Load(ctx, s.DB, owner.ID)
	}
	return s.Setups.Get(ctx, owner.ID, owner.Version)
}

// Owner is the owner with that public username and their current data
// version (ID "" when there is none): what Times and Days are asked about.
func (s *Service) Owner(ctx context.Context, username string) (versions.Owner, error) {
	return versions.OfUsername(ctx, s.DB, profiles.NormalizeUsername(username))
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
// gives (from the setup) need: the owner's setup as of their data version,
// then the busy days of those dates.
func (s *Service) readPublic(ctx context.Context, owner versions.Owner, professionalID, serviceID string, span func(*schedule.Setup) (from, to time.Time)) (public, error) {
	st, err := s.setup(ctx, owner)
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
// union of the free times of everyone who performs the service. The owner
// is read before (Owner): the times are computed as of their version.
func (s *Service) Times(ctx context.Context, owner versions.Owner, professionalID, serviceID, date string) ([]string, error) {
	day, err := parseDate(date)
	if err != nil {
		return nil, err
	}
	v, err := s.readPublic(ctx, owner, professionalID, serviceID, func(*schedule.Setup) (time.Time, time.Time) {
		return day.AddDate(0, 0, -slots.ReachDays), day.AddDate(0, 0, slots.ReachDays)
	})
	if err != nil {
		return nil, err
	}
	return s.freeOn(v, day), nil
}

// freeOn is the free start times of a date, from what readPublic read.
func (s *Service) freeOn(v public, day time.Time) []string {
	st := v.st
	out := []string{}
	if !s.bookable(st, day) {
		return out
	}
	var starts []int64
	for _, p := range v.pros {
		d, _ := s.dayOf(st, p, v.svc, day, v.busy.Near(p.ID, day))
		starts = append(starts, slots.Free(d)...)
	}
	slices.Sort(starts)
	return clockTimes(slices.Compact(starts), st.Loc)
}

// FreeTimes is Times for an owner known by id: the times the public page
// offers (the waitlist offers one of them when time frees up). It reads the
// current busy time; the claim that books one is decided under the lock.
func (s *Service) FreeTimes(ctx context.Context, ownerID, professionalID, serviceID, date string) ([]string, error) {
	day, err := parseDate(date)
	if err != nil {
		return nil, err
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return nil, err
	}
	svc, pros, err := choose(st, professionalID, serviceID)
	if err != nil {
		return nil, err
	}
	busy, err := readBusyDays(ctx, s.DB, st, ids(pros), day.AddDate(0, 0, -slots.ReachDays), day.AddDate(0, 0, slots.ReachDays))
	if err != nil {
		return nil, err
	}
	return s.freeOn(public{st, svc, pros, busy}, day), nil
}

// Performs reports whether the owner's professional (or, with Any, anyone)
// performs the active service now.
func (s *Service) Performs(ctx context.Context, ownerID, professionalID, serviceID string) (bool, error) {
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return false, err
	}
	_, _, err = choose(st, professionalID, serviceID)
	return err == nil, nil
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

// Month is what the public calendar shows of a month: the dates with a
// free time, and the dates the practice works but whose times are all
// taken ("Lotado": the client can join the waitlist for one).
type Month struct {
	Days []string `json:"days"`
	Full []string `json:"full"`
}

// Days returns the dates of a month ("2006-01") that have at least one free
// time (for anyone, with Any), and those that are open but full: one range
// read of the month's appointments, the rules in memory. A full date is one
// that would offer a time were nothing booked or blocked in it; a closed
// day, a day off or a day whose hours have passed is neither.
func (s *Service) Days(ctx context.Context, owner versions.Owner, professionalID, serviceID, month string) (Month, error) {
	out := Month{Days: []string{}, Full: []string{}}
	first, err := slots.ParseMonth(month)
	if err != nil {
		return out, errMonth
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
	v, err := s.readPublic(ctx, owner, professionalID, serviceID, func(st *schedule.Setup) (time.Time, time.Time) {
		return first.AddDate(0, 0, -slots.ReachDays), last(st).AddDate(0, 0, slots.ReachDays)
	})
	if err != nil {
		return out, err
	}
	st := v.st
	today, end := slots.Today(s.Clock.Now(), st.Loc), last(st)
	var buf []slots.Busy // each date's busy time, done with before the next
	for d := first; !d.After(end); d = d.AddDate(0, 0, 1) {
		date := d.Format("2006-01-02")
		if date < today {
			continue
		}
		free, open := false, false
		for _, p := range v.pros {
			var near []slots.Busy
			if NearBufferOff.Load() {
				near = v.busy.Near(p.ID, d)
			} else {
				near = v.busy.NearInto(&buf, p.ID, d)
			}
			day, _ := s.dayOf(st, p, v.svc, d, near)
			if slots.Any(day) {
				free = true
				break
			}
			day.Busy = nil
			open = open || slots.Any(day)
		}
		switch {
		case free:
			out.Days = append(out.Days, date)
		case open:
			out.Full = append(out.Full, date)
		}
	}
	return out, nil
}

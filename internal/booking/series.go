// Series: the dates a repeating appointment takes, each decided against
// the professional's busy time and the series' own earlier sessions, and the
// free times offered instead of a taken date.

package booking

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

// Repeat makes an owner's appointment a series: every week, every two
// weeks or every month (the same day of the month; a month without that day
// is passed over), for Count sessions or until a date, at most MaxSeries.
// Skip lists dates the owner chose to leave out (after a preview showed
// them taken).
type Repeat struct {
	Every string   `json:"every"` // "week", "2weeks" or "month"
	Count int      `json:"count"`
	Until string   `json:"until"`
	Skip  []string `json:"skip"`
	// Extend keeps Count: a date that is taken (or skipped) is replaced by
	// the next date of the rule after the last, within the owner's reach.
	Extend bool `json:"extend"`
	// Moves put a taken date's session at another time of its week.
	Moves []SessionMove `json:"moves"`
}

// SessionMove puts the session of a series' Date on To at Time instead (To
// within six days of Date: the same week of the series).
type SessionMove struct {
	Date string `json:"date"`
	To   string `json:"to"`
	Time string `json:"time"`
}

var errSessionMove = httpx.Validation("Cada sessão movida deve ir para um horário (HH:MM) da mesma semana, em uma data da série.")

// MaxSeries is the most sessions one series may have.
const MaxSeries = 52

// Occurrence is one date of a series and, in a preview, why it cannot be
// booked ("" when it can): the code and message a single booking would get.
type Occurrence struct {
	Date    string `json:"date"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Skipped bool   `json:"skipped"`
	// The session's own date and time when the owner moved it (Moves), else
	// the series' date and time.
	To   string `json:"to"`
	Time string `json:"time"`
	// Added: a date after the series' end that keeps its count (Extend).
	Added bool `json:"added"`
	// Alternatives are free times of that week offered for a taken date
	// (Preview only), "YYYY-MM-DD HH:MM", nearest first.
	Alternatives []string `json:"alternatives"`
	err          error    // the refusal itself, for a single appointment's answer
	dropped      bool     // a candidate date Extend did not need
}

var (
	errRepeat    = httpx.Validation("Escolha a repetição (semanal, quinzenal ou mensal) e quantas sessões (2 a 52) ou até que data.")
	errConflicts = func(dates []string) *httpx.Error {
		return httpx.NewError(http.StatusConflict, "series_conflicts",
			"Algumas datas da série não estão livres: "+strings.Join(dates, ", ")+". Pule essas datas ou escolha outro horário.")
	}
)

// dates are the series' dates from the first: every date the rule gives,
// up to Count or Until, at most MaxSeries, the last within the owner's reach.
func (r *Repeat) dates(first time.Time, last string) ([]time.Time, error) {
	if r == nil {
		return []time.Time{first}, nil
	}
	until := last
	if r.Until != "" {
		u, err := slots.ParseDate(r.Until)
		if err != nil || u.Before(first) {
			return nil, errRepeat
		}
		until = min(until, r.Until)
	}
	if (r.Count == 0 && r.Until == "") || r.Count == 1 || r.Count < 0 || r.Count > MaxSeries {
		return nil, errRepeat
	}
	var out []time.Time
	for i := 0; len(out) < MaxSeries && (r.Count == 0 || len(out) < r.Count) && i < 3*MaxSeries; i++ {
		var d time.Time
		switch r.Every {
		case "week":
			d = first.AddDate(0, 0, 7*i)
		case "2weeks":
			d = first.AddDate(0, 0, 14*i)
		case "month":
			d = first.AddDate(0, i, 0)
			if d.Day() != first.Day() {
				continue // no such day that month (the 31st, February's 30th)
			}
		default:
			return nil, errRepeat
		}
		if d.Format("2006-01-02") > until {
			break
		}
		out = append(out, d)
	}
	if len(out) < 2 {
		return nil, errRepeat
	}
	return out, nil
}

// check decides every date against the professional's busy time and the
// series' own earlier dates: what a single booking of each would answer,
// skipped dates marked.
//
// With Extend, a taken date is skipped rather than refused, and dates after
// the series' end are added until it keeps its count; the candidates it
// did not need are dropped (and their time, taken as they were decided,
// only ever came after every kept session's).
func (s *Service) check(o *owned, busy BusyDays) []Occurrence {
	errs := s.mayHoldAll(o.st, o.pro, o.svc, o.sessions, busy, yes{o.in.OutsideHours, o.in.OverPersonal})
	extend := o.in.Repeat != nil && o.in.Repeat.Extend
	out := make([]Occurrence, 0, len(o.sessions))
	kept := 0
	for i, ss := range o.sessions {
		oc := Occurrence{Date: ss.date, To: ss.day.Format("2006-01-02"), Time: ss.wall, Skipped: ss.skipped, err: errs[i], Added: i >= o.count, Alternatives: []string{}}
		var he *httpx.Error
		if errors.As(oc.err, &he) {
			oc.Code, oc.Message = he.Code, he.Message
		} else if oc.err != nil {
			oc.Code, oc.Message = "invalid", oc.err.Error()
		}
		switch {
		case kept >= o.count:
			oc.dropped = true
		case oc.Skipped:
		case oc.err != nil && extend:
			oc.Skipped = true
		default:
			kept++
		}
		out = append(out, oc)
	}
	return out
}

// shown are the occurrences an answer lists: those Extend did not drop.
func shown(plan []Occurrence) []Occurrence {
	out := make([]Occurrence, 0, len(plan))
	for _, oc := range plan {
		if !oc.dropped {
			out = append(out, oc)
		}
	}
	return out
}

// alternatives are up to six free times of a taken date's week (the three
// days either side) for the series' professional and service, nearest to
// the series' own date and time first, never at another session's date.
func (s *Service) alternatives(o *owned, busy BusyDays, date string) []string {
	day, err := slots.ParseDate(date)
	if err != nil {
		return []string{}
	}
	want, _ := slots.ParseHHMM(o.in.Time)
	sessionDates := map[string]bool{}
	for _, ss := range o.sessions {
		sessionDates[ss.day.Format("2006-01-02")] = true
	}
	type option struct {
		at   string
		cost int
	}
	var opts []option
	today := slots.Today(s.Clock.Now(), o.st.Loc)
	for k := -3; k <= 3; k++ {
		d := day.AddDate(0, 0, k)
		ds := d.Format("2006-01-02")
		if ds < today || (k != 0 && sessionDates[ds]) {
			continue
		}
		dd, _ := s.dayOf(o.st, o.pro, o.svc, d, busy.Near(o.pro.ID, d))
		dd.Notice = 0
		for _, t := range slots.Free(dd) {
			hm := slots.Clock(t, o.st.Loc)
			m, _ := slots.ParseHHMM(hm)
			opts = append(opts, option{ds + " " + hm, abs(k)*24*60 + abs(m-want)})
		}
	}
	slices.SortStableFunc(opts, func(a, b option) int { return cmp.Compare(a.cost, b.cost) })
	out := []string{}
	for _, op := range opts[:min(len(opts), 6)] {
		out = append(out, op.at)
	}
	return out
}

// session is one appointment of a set that one hold decides: its date and
// start, and whether the owner left it out.
type session struct {
	date    string    // the series' date it stands for
	day     time.Time // where it is held: that date, or where the owner moved it
	start   int64
	wall    string // the wall-clock time it must keep (a date whose clocks skip it cannot have it)
	skipped bool
}

// mayHoldAll decides, under the professional's lock, every appointment of
// svc one hold is to write for p (a series created, sessions moved
// together), in order: each as mayHold decides it alone, at its wall-clock
// time (a date whose clocks skip it cannot have it), and also against
// the ones decided before it, whose time it takes as it goes (Take) — so
// the set never collides with itself. It returns each one's refusal (nil:
// free, or skipped).
func (s *Service) mayHoldAll(st *schedule.Setup, p *schedule.Professional, svc *schedule.Service, sessions []session, busy BusyDays, ok yes) []error {
	errs := make([]error, len(sessions))
	for i, ss := range sessions {
		if ss.skipped {
			continue
		}
		if slots.Clock(ss.start, st.Loc) != ss.wall {
			errs[i] = errDateTime
			continue
		}
		if errs[i] = s.mayHold(st, p, svc, ss.day, ss.start, busy, ok); errs[i] == nil {
			busy.Take(p.ID, ss.day, slots.Busy{Start: ss.start, Duration: svc.Duration, Before: svc.Before, After: svc.After})
		}
	}
	return errs
}

// The plan of a range of dates (/api/schedule): the windows or the closing
// reason of each date, that the agenda labels its days with.

package schedule

import (
	"context"
	"net/http"
	"sort"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/slots"
)

// Day is one date's plan as the agenda shows it.
type Day struct {
	Date    string   `json:"date"`
	Windows []Window `json:"windows"`
	Closed  Closed   `json:"closed"`
	Label   string   `json:"label"`
}

// Window is a stretch of work as HH:MM.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Range is the plan of each date from..to (at most 62 days): one
// professional's, or the union of the active professionals' windows, closed
// with the practice's own label when nobody works.
func (s *Settings) Range(ctx context.Context, userID, from, to, professionalID string) ([]Day, error) {
	first, err1 := slots.ParseDate(from)
	last, err2 := slots.ParseDate(to)
	if err1 != nil || err2 != nil || last.Before(first) || last.Sub(first) > 62*24*time.Hour {
		return nil, errRange
	}
	st, err := Load(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	var who []string
	if professionalID != "" {
		if st.Professionals[professionalID] == nil {
			return nil, errNotFound
		}
		who = []string{professionalID}
	} else {
		for id, p := range st.Professionals {
			if p.Active {
				who = append(who, id)
			}
		}
	}
	out := []Day{}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		var plans []Plan
		for _, id := range who {
			plans = append(plans, st.Plan(id, d))
		}
		if len(who) == 0 {
			plans = append(plans, st.Plan("", d))
		}
		day := Day{Date: d.Format("2006-01-02"), Windows: []Window{}}
		merged := union(plans)
		if len(merged) == 0 {
			closed := plans[0]
			if len(who) > 1 {
				closed = st.Plan("", d) // nobody works: say why the practice is closed
				if closed.Closed == Open {
					closed = plans[0]
				}
			}
			day.Closed, day.Label = closed.Closed, closed.Label
			if day.Closed == Open {
				day.Closed, day.Label = ClosedWeekday, "Fechado"
			}
		}
		for _, w := range merged {
			day.Windows = append(day.Windows, Window{slots.FormatHHMM(w[0]), slots.FormatHHMM(w[1])})
		}
		out = append(out, day)
	}
	return out, nil
}

// union merges the plans' windows: sorted, overlapping or touching ones joined.
func union(plans []Plan) [][2]int {
	var all [][2]int
	for _, p := range plans {
		all = append(all, p.Windows...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i][0] < all[j][0] })
	var out [][2]int
	for _, w := range all {
		if n := len(out); n > 0 && w[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], w[1])
			continue
		}
		out = append(out, w)
	}
	return out
}

func (h *SettingsHandlers) getRange(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	q := r.URL.Query()
	out, err := h.Settings.Range(r.Context(), uid, q.Get("from"), q.Get("to"), q.Get("professional"))
	return httpx.Respond(w, http.StatusOK, out, err)
}

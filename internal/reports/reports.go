// Package reports aggregates the owner's appointments for the reports
// screen, in the database: overview, counts by status, recent dates, monthly
// revenue for six months and the future count (SPEC §2 Reports, §9).
package reports

import (
	"context"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/profiles"
)

// Report is everything the four tabs show.
type Report struct {
	Overview struct {
		TotalAppointments  int   `json:"totalAppointments"`
		RevenueCents       int64 `json:"revenueCents"`
		UniqueClients      int   `json:"uniqueClients"`
		AverageTicketCents int64 `json:"averageTicketCents"`
	} `json:"overview"`
	ByStatus       map[string]int `json:"byStatus"`
	RecentDates    []DateCount    `json:"recentDates"`
	MonthlyRevenue []MonthRevenue `json:"monthlyRevenue"`
	FutureCount    int            `json:"futureCount"`
	NoShows        NoShows        `json:"noShows"`
}

// NoShows is how often clients did not come: of the appointments that were
// due (begun, not cancelled), how many were marked 'Não compareceu', in all,
// per professional and for each of the last six months.
type NoShows struct {
	Due            int           `json:"due"`
	Count          int           `json:"count"`
	Rate           int           `json:"rate"` // percent, rounded
	ByProfessional []NoShowGroup `json:"byProfessional"`
	ByMonth        []NoShowGroup `json:"byMonth"`
}

// NoShowGroup is the no-shows of one professional (Name) or month ("2026-11").
type NoShowGroup struct {
	Name  string `json:"name"`
	Due   int    `json:"due"`
	Count int    `json:"count"`
	Rate  int    `json:"rate"`
}

func rate(count, due int) int {
	if due == 0 {
		return 0
	}
	return (count*100 + due/2) / due
}

// DateCount is how many appointments a date had.
type DateCount struct {
	Date  string `json:"date"`
	Count int    `json:"count"`
}

// MonthRevenue is a month's revenue ("2026-11").
type MonthRevenue struct {
	Month        string `json:"month"`
	RevenueCents int64  `json:"revenueCents"`
}

// Service builds reports.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
}

// Revenue and the future count use confirmed and completed appointments.
const earning = `status IN ('confirmed', 'completed')`

// Build aggregates the owner's appointments, optionally for one professional and/or service.
func (s *Service) Build(ctx context.Context, userID, professionalID, serviceID string) (*Report, error) {
	where, args := `user_id = ?`, []any{userID}
	if professionalID != "" {
		where += ` AND professional_id = ?`
		args = append(args, professionalID)
	}
	if serviceID != "" {
		where += ` AND service_id = ?`
		args = append(args, serviceID)
	}
	loc, err := profiles.Zone(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now().In(loc)
	var r Report
	// One pass over the owner's client index: per client, then summed, which
	// counts distinct clients without the sort COUNT(DISTINCT) costs and gives
	// the counts by status on the way.
	var byStatus struct{ confirmed, cancelled, completed, noShow int }
	today := now.Format("2006-01-02")
	err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(n), 0), COALESCE(SUM(revenue), 0), COALESCE(SUM(future), 0),
		COALESCE(SUM(confirmed), 0), COALESCE(SUM(cancelled), 0), COALESCE(SUM(completed), 0), COALESCE(SUM(no_show), 0)
		FROM (SELECT COUNT(*) AS n,
			SUM(CASE WHEN `+earning+` THEN price_cents ELSE 0 END) AS revenue,
			SUM(CASE WHEN `+earning+` AND (appointment_date > ? OR (appointment_date = ? AND appointment_time >= ?)) THEN 1 ELSE 0 END) AS future,
			SUM(CASE WHEN status = 'confirmed' THEN 1 ELSE 0 END) AS confirmed,
			SUM(CASE WHEN status = 'cancelled' THEN 1 ELSE 0 END) AS cancelled,
			SUM(CASE WHEN status = 'completed' THEN 1 ELSE 0 END) AS completed,
			SUM(CASE WHEN status = 'no_show' THEN 1 ELSE 0 END) AS no_show
			FROM appointments WHERE `+where+` GROUP BY client_key) k`,
		append([]any{today, today, now.Format("15:04")}, args...)...).
		Scan(&r.Overview.UniqueClients, &r.Overview.TotalAppointments, &r.Overview.RevenueCents, &r.FutureCount,
			&byStatus.confirmed, &byStatus.cancelled, &byStatus.completed, &byStatus.noShow)
	if err != nil {
		return nil, err
	}
	if r.Overview.UniqueClients > 0 {
		r.Overview.AverageTicketCents = r.Overview.RevenueCents / int64(r.Overview.UniqueClients)
	}
	r.ByStatus = map[string]int{"confirmed": byStatus.confirmed, "cancelled": byStatus.cancelled, "completed": byStatus.completed, "no_show": byStatus.noShow}
	// The last 10 of the last 30 distinct dates with appointments, newest first.
	rows, err := s.DB.QueryContext(ctx, `SELECT appointment_date, COUNT(*) FROM appointments WHERE `+where+`
		GROUP BY appointment_date ORDER BY appointment_date DESC LIMIT 10`, args...)
	if err != nil {
		return nil, err
	}
	r.RecentDates = []DateCount{}
	for rows.Next() {
		var d DateCount
		if err := rows.Scan(&d.Date, &d.Count); err != nil {
			rows.Close()
			return nil, err
		}
		r.RecentDates = append(r.RecentDates, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Revenue of this month and the five before it, oldest first. Grouped by
	// day, the order of the owner's date index, and added up by month here:
	// grouping by the month expression made the database sort every row.
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc).AddDate(0, -5, 0)
	next := first.AddDate(0, 6, 0)
	byMonth := map[string]int64{}
	rows, err = s.DB.QueryContext(ctx, `SELECT appointment_date, COALESCE(SUM(CASE WHEN `+earning+` THEN price_cents ELSE 0 END), 0)
		FROM appointments WHERE `+where+` AND appointment_date >= ? AND appointment_date < ? GROUP BY appointment_date`,
		append(args, first.Format("2006-01-02"), next.Format("2006-01-02"))...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var day string
		var c int64
		if err := rows.Scan(&day, &c); err != nil {
			rows.Close()
			return nil, err
		}
		byMonth[day[:min(len(day), 7)]] += c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range 6 {
		m := first.AddDate(0, i, 0).Format("2006-01")
		r.MonthlyRevenue = append(r.MonthlyRevenue, MonthRevenue{Month: m, RevenueCents: byMonth[m]})
	}
	if r.NoShows, err = s.noShows(ctx, where, args, now, first); err != nil {
		return nil, err
	}
	return &r, nil
}

// noShows counts, among the appointments that were due by now (begun and
// not cancelled), those marked 'Não compareceu': per professional over all
// time, and per month from first (six months).
func (s *Service) noShows(ctx context.Context, where string, args []any, now, first time.Time) (NoShows, error) {
	out := NoShows{ByProfessional: []NoShowGroup{}, ByMonth: []NoShowGroup{}}
	today, clock := now.Format("2006-01-02"), now.Format("15:04")
	due := where + ` AND status <> 'cancelled' AND (appointment_date < ? OR (appointment_date = ? AND appointment_time <= ?))`
	dueArgs := append(append([]any{}, args...), today, today, clock)
	rows, err := s.DB.QueryContext(ctx, `SELECT professional_name, COUNT(*), SUM(CASE WHEN status = 'no_show' THEN 1 ELSE 0 END)
		FROM appointments WHERE `+due+` GROUP BY professional_name ORDER BY professional_name`, dueArgs...)
	if err != nil {
		return out, err
	}
	for rows.Next() {
		var g NoShowGroup
		if err := rows.Scan(&g.Name, &g.Due, &g.Count); err != nil {
			rows.Close()
			return out, err
		}
		g.Rate = rate(g.Count, g.Due)
		out.Due, out.Count = out.Due+g.Due, out.Count+g.Count
		out.ByProfessional = append(out.ByProfessional, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}
	out.Rate = rate(out.Count, out.Due)
	byMonth := map[string]*NoShowGroup{}
	rows, err = s.DB.QueryContext(ctx, `SELECT appointment_date, COUNT(*), SUM(CASE WHEN status = 'no_show' THEN 1 ELSE 0 END)
		FROM appointments WHERE `+due+` AND appointment_date >= ? GROUP BY appointment_date`, append(dueArgs, first.Format("2006-01-02"))...)
	if err != nil {
		return out, err
	}
	for rows.Next() {
		var day string
		var n, c int
		if err := rows.Scan(&day, &n, &c); err != nil {
			rows.Close()
			return out, err
		}
		m := day[:min(len(day), 7)]
		if byMonth[m] == nil {
			byMonth[m] = &NoShowGroup{Name: m}
		}
		byMonth[m].Due += n
		byMonth[m].Count += c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}
	for i := range 6 {
		m := first.AddDate(0, i, 0).Format("2006-01")
		g := NoShowGroup{Name: m}
		if byMonth[m] != nil {
			g = *byMonth[m]
		}
		g.Rate = rate(g.Count, g.Due)
		out.ByMonth = append(out.ByMonth, g)
	}
	return out, nil
}

// Handlers serves /api/reports.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
	Memo *memo.Cache // nil: no cache
}

// Register adds the route.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/reports", h.Auth.RequireUser(h.Memo.Owner("reports", auth.UserID, httpx.Handle(h.get))))
}

func (h *Handlers) get(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	rep, err := h.Svc.Build(r.Context(), auth.UserID(r.Context()), q.Get("professional"), q.Get("service"))
	return httpx.Respond(w, http.StatusOK, rep, err)
}

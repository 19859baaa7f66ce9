// Package reports aggregates the owner's appointments of a period for the
// reports screen, in the database: overview (realized revenue apart from
// scheduled), counts by status, recent dates, monthly revenue and no-shows
// (SPEC §2 Reports, §9; issue 26).
package reports

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/payments"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/profiles"
)

// Report is everything the four tabs show, for one period.
type Report struct {
	Period         Period         `json:"period"`
	Overview       Overview       `json:"overview"`
	ByStatus       map[string]int `json:"byStatus"`
	RecentDates    []DateCount    `json:"recentDates"`
	MonthlyRevenue []MonthRevenue `json:"monthlyRevenue"`
	NoShows        NoShows        `json:"noShows"`
	Deposits       Deposits       `json:"deposits"`
}

// Deposits are the period's deposits (issue 29), by their appointments'
// dates: received (paid, whatever came after), retained (kept on a no-show
// or a late cancellation — revenue: RealizedCents includes them), returned,
// and still to return.
type Deposits struct {
	ReceivedCount int   `json:"receivedCount"`
	ReceivedCents int64 `json:"receivedCents"`
	RetainedCount int   `json:"retainedCount"`
	RetainedCents int64 `json:"retainedCents"`
	ReturnedCount int   `json:"returnedCount"`
	ReturnedCents int64 `json:"returnedCents"`
	ToReturnCount int   `json:"toReturnCount"`
	ToReturnCents int64 `json:"toReturnCents"`
}

// Overview is the period's numbers. Revenue is realized (attended:
// completed and begun by now, booking.Attended) or scheduled (confirmed and
// still ahead, booking.Scheduled), never the two added up; what is past and
// still only confirmed is pending, the owner's to mark as completed or not
// attended. Cancellations and no-shows earn nothing.
type Overview struct {
	TotalAppointments int   `json:"totalAppointments"` // of any status
	UniqueClients     int   `json:"uniqueClients"`     // with an appointment of any status
	AttendedClients   int   `json:"attendedClients"`   // with an attended appointment
	RealizedCount     int   `json:"realizedCount"`
	RealizedCents     int64 `json:"realizedCents"`
	ScheduledCount    int   `json:"scheduledCount"`
	ScheduledCents    int64 `json:"scheduledCents"`
	PendingCount      int   `json:"pendingCount"`
	PendingCents      int64 `json:"pendingCents"`
	// SPEC's "ticket médio" (revenue ÷ unique clients), said for what it is:
	// the realized revenue per client attended.
	RevenuePerClientCents int64 `json:"revenuePerClientCents"`
	// The realized revenue per attended appointment.
	AveragePerAppointmentCents int64 `json:"averagePerAppointmentCents"`
	// "A receber" (issue 43 §4): the attended sessions (completed, or
	// confirmed and begun) not paid yet, and what they still owe after any
	// deposit received (payments.Owed).
	DueCount int   `json:"dueCount"`
	DueCents int64 `json:"dueCents"`
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

// MonthRevenue is a month's ("2026-11") realized and scheduled revenue.
type MonthRevenue struct {
	Month          string `json:"month"`
	RealizedCents  int64  `json:"realizedCents"`
	ScheduledCents int64  `json:"scheduledCents"`
	due, noShows   int    // the month's no-shows, of what was due (NoShows.ByMonth)
}

// Service builds reports.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
}

// Period is the dates a report covers, both included. Key is how it was
// asked: "month" (this month, the default), "last_month", "3months" (this
// month and the two before it), "year" (this calendar year) or "custom"
// (From and To given).
type Period struct {
	Key  string `json:"key"`
	From string `json:"from"`
	To   string `json:"to"`
}

// MaxPeriodDays bounds a custom period (ten years).
const MaxPeriodDays = 3660

var errPeriod = httpx.Validation("Período inválido: informe a data inicial e a final, a inicial antes da final.")

// Resolve turns a period's key (and a custom period's dates) into its
// dates, from now in the owner's zone.
func Resolve(key, from, to string, now time.Time) (Period, error) {
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	span := func(first time.Time, months int) Period {
		return Period{Key: key, From: first.Format(time.DateOnly), To: first.AddDate(0, months, -1).Format(time.DateOnly)}
	}
	switch key {
	case "", "month":
		key = "month"
		return span(month, 1), nil
	case "last_month":
		return span(month.AddDate(0, -1, 0), 1), nil
	case "3months":
		return span(month.AddDate(0, -2, 0), 3), nil
	case "year":
		return span(time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC), 12), nil
	case "custom":
		f, err1 := time.Parse(time.DateOnly, from)
		t, err2 := time.Parse(time.DateOnly, to)
		if err1 != nil || err2 != nil || t.Before(f) || t.Sub(f) > MaxPeriodDays*24*time.Hour {
			return Period{}, errPeriod
		}
		return Period{Key: key, From: f.Format(time.DateOnly), To: t.Format(time.DateOnly)}, nil
	}
	return Period{}, errPeriod
}

// byClient is the period's condition for a read grouped by client. A short
// period is found on the owner's date index, its rows then read and sorted
// by client; past about two months those reads cost more than the whole of
// the owner's client index, which is in client order and holds all such a
// read needs, so the dates are then compared as text appended to an empty
// string, which no index serves, and the client index is scanned (SQLite,
// 100,000 appointments: a year 187 ms by date, 39 ms by client; a month
// 13 ms by date).
func (p Period) byClient() string {
	from, _ := time.Parse(time.DateOnly, p.From)
	to, _ := time.Parse(time.DateOnly, p.To)
	if to.Sub(from) > 62*24*time.Hour {
		return ` AND appointment_date || '' >= ? AND appointment_date || '' <= ?`
	}
	return ` AND appointment_date >= ? AND appointment_date <= ?`
}

// Months are the months the revenue and no-show charts show for a period:
// those it touches, at most 24 (its last 24), oldest first, as "2026-11".
// The charts follow the chosen period (issue 39: "Este mês" drew six months).
func (p Period) Months() []string {
	from, _ := time.Parse(time.DateOnly, p.From)
	to, _ := time.Parse(time.DateOnly, p.To)
	last := time.Date(to.Year(), to.Month(), 1, 0, 0, 0, 0, time.UTC)
	first := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	if most := last.AddDate(0, -23, 0); first.Before(most) {
		first = most
	}
	var out []string
	for m := first; !m.After(last); m = m.AddDate(0, 1, 0) {
		out = append(out, m.Format("2006-01"))
	}
	return out
}

// Query is what a report is asked for: a period (Resolve's key, and From
// and To for a custom one) and optionally one professional and/or service.
type Query struct {
	Period, From, To      string
	Professional, Service string
}

// Build aggregates the owner's appointments of the asked period.
func (s *Service) Build(ctx context.Context, userID string, q Query) (*Report, error) {
	where, args := `user_id = ?`, []any{userID}
	if q.Professional != "" {
		where += ` AND professional_id = ?`
		args = append(args, q.Professional)
	}
	if q.Service != "" {
		where += ` AND service_id = ?`
		args = append(args, q.Service)
	}
	loc, err := profiles.Zone(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	at := s.Clock.Now().In(loc)
	period, err := Resolve(q.Period, q.From, q.To, at)
	if err != nil {
		return nil, err
	}
	now := booking.Now(at)
	r := Report{Period: period}
	inPeriod := where + ` AND appointment_date >= ? AND appointment_date <= ?`
	periodArgs := append(append([]any{}, args...), period.From, period.To)
	// One pass grouped by client (on the index Period.byClient leads to),
	// then summed, which counts distinct clients — and those attended —
	// without the sort COUNT(DISTINCT) costs, and the counts by status on
	// the way.
	var byStatus struct{ confirmed, awaiting, cancelled, completed, noShow int }
	o := &r.Overview
	var outcome []any
	for range 6 {
		outcome = append(outcome, now...)
	}
	err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(n), 0), COALESCE(SUM(CASE WHEN realized > 0 THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(realized), 0), COALESCE(SUM(realized_cents), 0), COALESCE(SUM(scheduled), 0), COALESCE(SUM(scheduled_cents), 0),
		COALESCE(SUM(pending), 0), COALESCE(SUM(pending_cents), 0),
		COALESCE(SUM(confirmed), 0), COALESCE(SUM(awaiting), 0), COALESCE(SUM(cancelled), 0), COALESCE(SUM(completed), 0), COALESCE(SUM(no_show), 0)
		FROM (SELECT COUNT(*) AS n,
			SUM(CASE WHEN `+booking.Attended+` THEN 1 ELSE 0 END) AS realized,
			SUM(CASE WHEN `+booking.Attended+` THEN price_cents ELSE 0 END) AS realized_cents,
			SUM(CASE WHEN `+booking.Scheduled+` THEN 1 ELSE 0 END) AS scheduled,
			SUM(CASE WHEN `+booking.Scheduled+` THEN price_cents ELSE 0 END) AS scheduled_cents,
			SUM(CASE WHEN status = 'confirmed' AND NOT `+booking.Scheduled+` THEN 1 ELSE 0 END) AS pending,
			SUM(CASE WHEN status = 'confirmed' AND NOT `+booking.Scheduled+` THEN price_cents ELSE 0 END) AS pending_cents,
			SUM(CASE WHEN status = 'confirmed' THEN 1 ELSE 0 END) AS confirmed,
			SUM(CASE WHEN status = 'awaiting_deposit' THEN 1 ELSE 0 END) AS awaiting,
			SUM(CASE WHEN status = 'cancelled' THEN 1 ELSE 0 END) AS cancelled,
			SUM(CASE WHEN status = 'completed' THEN 1 ELSE 0 END) AS completed,
			SUM(CASE WHEN status = 'no_show' THEN 1 ELSE 0 END) AS no_show
			FROM appointments WHERE `+where+period.byClient()+` GROUP BY client_key) k`,
		append(outcome, periodArgs...)...).
		Scan(&o.UniqueClients, &o.TotalAppointments, &o.AttendedClients, &o.RealizedCount, &o.RealizedCents, &o.ScheduledCount, &o.ScheduledCents,
			&o.PendingCount, &o.PendingCents, &byStatus.confirmed, &byStatus.awaiting, &byStatus.cancelled, &byStatus.completed, &byStatus.noShow)
	if err != nil {
		return nil, err
	}
	dp := &r.Deposits
	err = s.DB.QueryRowContext(ctx, `SELECT
		COALESCE(SUM(CASE WHEN paid_at IS NOT NULL THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN paid_at IS NOT NULL THEN amount_cents ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN state = 'retained' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN state = 'retained' THEN amount_cents ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN state = 'returned' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN state = 'returned' THEN amount_cents ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN state = 'to_return' THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN state = 'to_return' THEN amount_cents ELSE 0 END), 0)
		FROM deposits WHERE appointment_id IN (SELECT id FROM appointments WHERE `+inPeriod+`)`, periodArgs...).
		Scan(&dp.ReceivedCount, &dp.ReceivedCents, &dp.RetainedCount, &dp.RetainedCents, &dp.ReturnedCount, &dp.ReturnedCents, &dp.ToReturnCount, &dp.ToReturnCents)
	if err != nil {
		return nil, err
	}
	o.DueCount, o.DueCents, err = payments.Owed(ctx, s.DB, userID, period.From, period.To, payments.Filter{Professional: q.Professional, Service: q.Service}, at)
	if err != nil {
		return nil, err
	}
	// A deposit kept on a no-show or a late cancellation is money earned.
	o.RealizedCents += dp.RetainedCents
	if o.AttendedClients > 0 {
		o.RevenuePerClientCents = o.RealizedCents / int64(o.AttendedClients)
	}
	if o.RealizedCount > 0 {
		o.AveragePerAppointmentCents = o.RealizedCents / int64(o.RealizedCount)
	}
	r.ByStatus = map[string]int{"confirmed": byStatus.confirmed, "cancelled": byStatus.cancelled, "completed": byStatus.completed, "no_show": byStatus.noShow}
	// A hold awaiting its deposit is its own status ("Aguardando sinal"),
	// never counted as confirmed nor as scheduled revenue (booking.Scheduled);
	// listed only when there is one (most practices take no deposits).
	if byStatus.awaiting > 0 {
		r.ByStatus["awaiting_deposit"] = byStatus.awaiting
	}
	// The last 10 dates of the period with appointments, newest first: up to
	// today, never a date still ahead ("Datas recentes", issue 39).
	rows, err := s.DB.QueryContext(ctx, `SELECT appointment_date, COUNT(*) FROM appointments WHERE `+inPeriod+` AND appointment_date <= ?
		GROUP BY appointment_date ORDER BY appointment_date DESC LIMIT 10`, append(append([]any{}, periodArgs...), now[0])...)
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
	// Realized and scheduled revenue of the period's months (Months), oldest
	// first. Grouped by day, the order of the owner's date index, and added
	// up by month here: grouping by the month expression made the database
	// sort every row.
	months := period.Months()
	if r.MonthlyRevenue, err = s.byMonth(ctx, where, args, now, months, period); err != nil {
		return nil, err
	}
	if r.NoShows, err = s.noShows(ctx, where, args, now, period); err != nil {
		return nil, err
	}
	r.NoShows.ByMonth = []NoShowGroup{}
	for _, m := range r.MonthlyRevenue {
		r.NoShows.ByMonth = append(r.NoShows.ByMonth, NoShowGroup{Name: m.Month, Due: m.due, Count: m.noShows, Rate: rate(m.noShows, m.due)})
	}
	return &r, nil
}

// byMonth adds up, for each of the months, the realized (with the retained
// deposits, as the overview) and scheduled revenue and the appointments due (begun, not cancelled) and not attended.
// Every date but today is decided by its status alone: the owner's date
// index holds date, status and price, so the months are read from it,
// grouped by date and status in its order, without reading a row of the
// table (a year of a busy owner is tens of thousands of rows). Today's
// appointments are split at the time of day by a second, small read.
//
// Only the period's days count: a month it covers in part adds up only the
// days inside it, as the overview does.
func (s *Service) byMonth(ctx context.Context, where string, args, now []any, months []string, period Period) ([]MonthRevenue, error) {
	first, next := max(months[0]+"-01", period.From), nextMonth(months[len(months)-1])
	if to, err := time.Parse(time.DateOnly, period.To); err == nil {
		next = min(next, to.AddDate(0, 0, 1).Format(time.DateOnly))
	}
	today := now[0].(string)
	index := map[string]int{}
	out := make([]MonthRevenue, len(months))
	for i, m := range months {
		index[m] = i
		out[i].Month = m
	}
	add := func(day, status string, begun bool, n int, cents int64) {
		i, ok := index[day[:min(len(day), 7)]]
		if !ok {
			return
		}
		m := &out[i]
		switch {
		case begun && status == "completed":
			m.RealizedCents += cents
		case !begun && status == "confirmed":
			m.ScheduledCents += cents
		}
		if begun && status != "cancelled" {
			m.due += n
			if status == "no_show" {
				m.noShows += n
			}
		}
	}
	err := db.Each(ctx, s.DB, `SELECT appointment_date, status, COUNT(*), COALESCE(SUM(price_cents), 0) FROM appointments
		WHERE `+where+` AND appointment_date >= ? AND appointment_date < ? GROUP BY appointment_date, status`,
		append(append([]any{}, args...), first, next), func(r *sql.Rows) error {
			var day, status string
			var n int
			var cents int64
			if err := r.Scan(&day, &status, &n, &cents); err != nil {
				return err
			}
			if day != today {
				add(day, status, day < today, n, cents)
			}
			return nil
		})
	if err != nil {
		return out, err
	}
	// A deposit kept on a no-show or a late cancellation is revenue of its
	// appointment's month, as the overview's realized revenue counts it.
	err = db.Each(ctx, s.DB, `SELECT appointment_date, COALESCE(SUM((SELECT SUM(amount_cents) FROM deposits
			WHERE deposits.appointment_id = appointments.id AND deposits.state = 'retained')), 0) FROM appointments
		WHERE `+where+` AND appointment_date >= ? AND appointment_date < ?
			AND id IN (SELECT appointment_id FROM deposits WHERE state = 'retained') GROUP BY appointment_date`,
		append(append([]any{}, args...), first, next), func(r *sql.Rows) error {
			var day string
			var cents int64
			if err := r.Scan(&day, &cents); err != nil {
				return err
			}
			if i, ok := index[day[:min(len(day), 7)]]; ok {
				out[i].RealizedCents += cents
			}
			return nil
		})
	if err != nil || today < first || today >= next {
		return out, err
	}
	err = db.Each(ctx, s.DB, `SELECT status, CASE WHEN appointment_time <= ? THEN 1 ELSE 0 END, COUNT(*), COALESCE(SUM(price_cents), 0) FROM appointments
		WHERE `+where+` AND appointment_date = ? GROUP BY 1, 2`,
		append(append([]any{now[2]}, args...), today), func(r *sql.Rows) error {
			var status string
			var begun, n int
			var cents int64
			if err := r.Scan(&status, &begun, &n, &cents); err != nil {
				return err
			}
			add(today, status, begun == 1, n, cents)
			return nil
		})
	return out, err
}

// nextMonth is the first day of the month after "2026-11": "2026-12-01".
func nextMonth(month string) string {
	t, _ := time.Parse("2006-01", month)
	return t.AddDate(0, 1, 0).Format(time.DateOnly)
}

// noShows counts, among the appointments of the period that were due by now
// (begun and not cancelled), those marked 'Não compareceu': in all and per
// professional (per month: byMonth).
func (s *Service) noShows(ctx context.Context, where string, args, now []any, period Period) (NoShows, error) {
	out := NoShows{ByProfessional: []NoShowGroup{}, ByMonth: []NoShowGroup{}}
	due := where + ` AND status <> 'cancelled' AND (appointment_date < ? OR (appointment_date = ? AND appointment_time <= ?))`
	dueArgs := append(append([]any{}, args...), now...)
	rows, err := s.DB.QueryContext(ctx, `SELECT professional_name, COUNT(*), SUM(CASE WHEN status = 'no_show' THEN 1 ELSE 0 END)
		FROM appointments WHERE `+due+` AND appointment_date >= ? AND appointment_date <= ? GROUP BY professional_name ORDER BY professional_name`,
		append(dueArgs, period.From, period.To)...)
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
	rep, err := h.Svc.Build(r.Context(), auth.UserID(r.Context()), Query{Period: q.Get("period"), From: q.Get("from"), To: q.Get("to"),
		Professional: q.Get("professional"), Service: q.Get("service")})
	return httpx.Respond(w, http.StatusOK, rep, err)
}

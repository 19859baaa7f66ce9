package reports_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/server/servertest"
)

type row struct {
	date, at, status, pro, name, email, phone string
	price                                     int
}

type report struct {
	Period   struct{ Key, From, To string }
	Overview struct {
		TotalAppointments, UniqueClients, AttendedClients, RealizedCount, RealizedCents int
		ScheduledCount, ScheduledCents, PendingCount, PendingCents                      int
		RevenuePerClientCents, AveragePerAppointmentCents, DueCount, DueCents           int
	}
	ByStatus       map[string]int
	MonthlyRevenue []struct {
		Month                         string
		RealizedCents, ScheduledCents int
	}
	NoShows struct{ Due, Count, Rate int }
}

// owner signs up a practice with two professionals (Ana, Bia) and seeds its
// appointments as rows written by hand, so that the counts below are a hand
// count of them.
func owner(t *testing.T, e *servertest.Env, rows []row) (*servertest.Client, map[string]string) {
	c := e.Client()
	var me struct{ User struct{ ID string } }
	c.Signup("Dona", "dona@example.com", "segredo1", "gato").JSON(t, &me)
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
	}
	if r := c.Do("POST", "/api/onboarding", map[string]any{"name": "Dona", "area": "Psi", "publicUsername": "dona",
		"services": []map[string]any{{"name": "Sessão", "duration": 60, "priceCents": 10000}}, "days": days}); r.StatusCode >= 300 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	pros := map[string]string{}
	for _, name := range []string{"Ana", "Bia"} {
		var p struct{ ID string }
		c.Do("POST", "/api/professionals", map[string]string{"name": name, "specialization": "Psicóloga"}).JSON(t, &p)
		pros[name] = p.ID
	}
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	for _, r := range rows {
		start, _ := time.ParseInLocation("2006-01-02 15:04", r.date+" "+r.at, loc)
		_, err := e.DB.ExecContext(context.Background(), `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
			duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash,
			search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'Sessão', 60, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			uuid.NewString(), me.User.ID, pros[r.pro], svcs[0].ID, r.pro, r.price, r.name, r.email, r.phone, r.date, r.at, start.UTC(), r.status, uuid.NewString(),
			booking.SearchKey(r.name, r.email), booking.ClientKey(r.phone, r.email), e.Clock.Now(), e.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
	}
	return c, pros
}

// The clock stands at 2026-11-23 09:00 in São Paulo.
var rows = []row{
	{"2026-09-30", "16:00", "completed", "Ana", "Maria", "maria@x.com", "11911111111", 9900},
	// October, last month:
	{"2026-10-01", "09:00", "completed", "Ana", "Maria", "maria@x.com", "11911111111", 10000},
	{"2026-10-08", "09:00", "completed", "Ana", "Maria", "", "11911111111", 10000},
	{"2026-10-15", "10:00", "no_show", "Ana", "João", "joao@x.com", "", 20000},
	{"2026-10-20", "11:00", "cancelled", "Ana", "Ana Paula", "ana@x.com", "", 5000},
	{"2026-10-31", "17:00", "completed", "Bia", "Érica", "", "21922222222", 12000},
	{"2026-10-31", "18:00", "confirmed", "Bia", "Beto", "", "11933333333", 7000}, // past, never marked: pending
	// November, this month:
	{"2026-11-01", "09:00", "completed", "Ana", "João", "joao@x.com", "", 4400},
	{"2026-11-23", "08:00", "completed", "Bia", "Beto", "", "11933333333", 5000},   // today, begun: realized
	{"2026-11-23", "10:00", "confirmed", "Ana", "Érica", "", "21922222222", 6000},  // today, ahead: scheduled
	{"2026-11-30", "10:00", "confirmed", "Ana", "Maria", "", "11911111111", 3000},  // scheduled
	{"2026-11-28", "10:00", "cancelled", "Ana", "Maria", "", "11911111111", 99999}, // earns nothing
}

func get(t *testing.T, c *servertest.Client, query string) report {
	t.Helper()
	r := c.Do("GET", "/api/reports"+query, nil)
	if r.StatusCode != 200 {
		t.Fatalf("%s: %d %s", query, r.StatusCode, r.Body)
	}
	var out report
	r.JSON(t, &out)
	return out
}

func months(r report) string {
	var m []string
	for _, x := range r.MonthlyRevenue {
		m = append(m, fmt.Sprintf("%s=%d+%d", x.Month, x.RealizedCents, x.ScheduledCents))
	}
	return strings.Join(m, " ")
}

// Last month against a hand count: realized is what was attended (three
// completed, R$ 320,00, by Maria twice and Érica), apart from the pending
// confirmed one and from nothing scheduled; the no-show and the
// cancellation earn nothing. "Receita por cliente" is R$ 320,00 ÷ 2 clients
// attended, the average per attended appointment R$ 320,00 ÷ 3.
func TestReports_LastMonthMatchesAHandCount(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c, pros := owner(t, e, rows)
		r := get(t, c, "?period=last_month")
		if r.Period.Key != "last_month" || r.Period.From != "2026-10-01" || r.Period.To != "2026-10-31" {
			t.Fatalf("period %+v", r.Period)
		}
		o := r.Overview
		if o.TotalAppointments != 6 || o.UniqueClients != 5 || o.AttendedClients != 2 || o.RealizedCount != 3 || o.RealizedCents != 32000 ||
			o.ScheduledCount != 0 || o.ScheduledCents != 0 || o.PendingCount != 1 || o.PendingCents != 7000 ||
			o.RevenuePerClientCents != 16000 || o.AveragePerAppointmentCents != 10666 || o.DueCount != 4 || o.DueCents != 39000 {
			t.Fatalf("overview %+v", o)
		}
		if !reflect.DeepEqual(r.ByStatus, map[string]int{"confirmed": 1, "completed": 3, "cancelled": 1, "no_show": 1}) {
			t.Fatalf("by status %v", r.ByStatus)
		}
		// Due: everything begun and not cancelled (5), one no-show.
		if r.NoShows.Due != 5 || r.NoShows.Count != 1 || r.NoShows.Rate != 20 {
			t.Fatalf("no-shows %+v", r.NoShows)
		}
		// The chart follows the period: last month alone (issue 39).
		if got := months(r); got != "2026-10=32000+0" {
			t.Fatalf("months %s", got)
		}
		// One professional's share of it.
		bia := get(t, c, "?period=last_month&professional="+pros["Bia"]).Overview
		if bia.TotalAppointments != 2 || bia.RealizedCents != 12000 || bia.PendingCount != 1 || bia.RevenuePerClientCents != 12000 {
			t.Fatalf("Bia %+v", bia)
		}
	})
}

// This month (the default) splits at the clock: today's 08:00 was attended,
// today's 10:00 is still scheduled; the other periods cover their dates.
func TestReports_PeriodsSplitRealizedFromScheduledAtNow(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c, _ := owner(t, e, rows)
		r := get(t, c, "")
		o := r.Overview
		if r.Period.Key != "month" || o.RealizedCount != 2 || o.RealizedCents != 9400 || o.ScheduledCount != 2 || o.ScheduledCents != 9000 ||
			o.PendingCount != 0 || o.AttendedClients != 2 || o.RevenuePerClientCents != 4700 || o.AveragePerAppointmentCents != 4700 {
			t.Fatalf("this month %+v %+v", r.Period, o)
		}
		if got := months(r); got != "2026-11=9400+9000" {
			t.Fatalf("months %s", got)
		}
		customReport := get(t, c, "?period=custom&from=2026-09-30&to=2026-10-01")
		custom := customReport.Overview
		if custom.RealizedCount != 2 || custom.RealizedCents != 19900 || custom.AttendedClients != 1 || custom.RevenuePerClientCents != 19900 || custom.AveragePerAppointmentCents != 9950 {
			t.Fatalf("custom %+v", custom)
		}
		// The chart's months count only the period's days, as the overview (issue 39).
		var chart int
		for _, m := range customReport.MonthlyRevenue {
			chart += m.RealizedCents
		}
		if chart != custom.RealizedCents {
			t.Fatalf("custom chart %s, overview %d", months(customReport), custom.RealizedCents)
		}
		three := get(t, c, "?period=3months")
		if three.Period.From != "2026-09-01" || three.Period.To != "2026-11-30" || three.Overview.RealizedCents != 9900+32000+9400 || three.Overview.TotalAppointments != len(rows) {
			t.Fatalf("3 months %+v", three)
		}
		year := get(t, c, "?period=year")
		if year.Period.From != "2026-01-01" || len(year.MonthlyRevenue) != 12 || year.Overview.ScheduledCents != 9000 {
			t.Fatalf("year %+v", year)
		}
		for _, q := range []string{"?period=custom&from=2026-10-05&to=2026-10-01", "?period=custom&from=2026-10-05", "?period=semana"} {
			if r := c.Do("GET", "/api/reports"+q, nil); r.StatusCode != 400 || r.Err(t).Error.Code != "validation_failed" {
				t.Fatalf("%s: %d %s", q, r.StatusCode, r.Body)
			}
		}
	})
}

package agenda_test

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

type shop struct {
	owner       *servertest.Client
	ownerID     string
	pro, svc    string
	appointment map[string]string // label → id
}

type seed struct {
	label, date, at, status, name, email, phone string
	price                                       int
}

// The clock stands at 2026-11-23 09:00 in São Paulo.
var seeds = []seed{
	{"m1", "2026-11-10", "10:00", "confirmed", "Maria", "maria@x.com", "11911111111", 10000},
	{"m2", "2026-11-20", "09:00", "completed", "Maria", "MARIA2@x.com", "11911111111", 15000},
	{"j1", "2026-11-23", "10:00", "confirmed", "João", "joao@x.com", "", 20000},
	{"a1", "2026-11-23", "08:00", "cancelled", "Ana", "ana@x.com", "", 5000},
	{"e1", "2026-11-25", "11:00", "confirmed", "Érica", "erica@x.com", "21922222222", 12000},
	{"j0", "2026-09-05", "10:00", "completed", "João", "joao@x.com", "", 8000},
}

func setup(t testing.TB, e *servertest.Env, email, username string) *shop {
	c := e.Client()
	var me struct{ User struct{ ID string } }
	c.Signup("Dona", email, "segredo1", "gato").JSON(t, &me)
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
	}
	c.Do("POST", "/api/onboarding", map[string]any{"name": "Dona", "area": "Psi", "publicUsername": username,
		"services": []map[string]any{{"name": "Sessão", "duration": 60, "priceCents": 10000}}, "days": days})
	var pro struct{ ID string }
	c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	return &shop{owner: c, ownerID: me.User.ID, pro: pro.ID, svc: svcs[0].ID, appointment: map[string]string{}}
}

func (s *shop) seed(t *testing.T, e *servertest.Env, rows []seed) {
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	for _, r := range rows {
		id := uuid.NewString()
		start, _ := time.ParseInLocation("2006-01-02 15:04", r.date+" "+r.at, loc)
		_, err := e.DB.ExecContext(context.Background(), `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
			duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash,
			search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, 'Ana', 'Sessão', 60, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, s.ownerID, s.pro, s.svc, r.price, r.name, r.email, r.phone, r.date, r.at, start.UTC(), r.status, uuid.NewString(),
			booking.SearchKey(r.name, r.email), booking.ClientKey(r.phone, r.email), e.Clock.Now(), e.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		s.appointment[r.label] = id
	}
}

func TestDashboard_MetricsAndTodayFromKnownData(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		var d struct {
			Date    string
			Metrics struct{ Total, Confirmed, ConfirmationRate, RevenueCents, UniqueClients int }
			Today   []struct{ ClientName, Time, Status string }
		}
		s.owner.Do("GET", "/api/dashboard", nil).JSON(t, &d)
		m := d.Metrics
		if d.Date != "2026-11-23" || m.Total != 3 || m.Confirmed != 2 || m.ConfirmationRate != 67 || m.RevenueCents != 47000 || m.UniqueClients != 3 {
			t.Fatalf("%+v", d)
		}
		if len(d.Today) != 1 || d.Today[0].ClientName != "João" || d.Today[0].Time != "10:00" {
			t.Fatalf("today: %+v", d.Today)
		}
	})
}

func names(t *testing.T, c *servertest.Client, query string) []string {
	var out struct {
		Appointments []struct{ ClientName, Date, Time string }
	}
	r := c.Do("GET", "/api/appointments?"+query, nil)
	if r.StatusCode != 200 {
		t.Fatalf("%s: %d %s", query, r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	var n []string
	for _, a := range out.Appointments {
		n = append(n, a.ClientName+"@"+a.Date[5:]+"T"+a.Time)
	}
	return n
}

func TestAgenda_RangeFiltersAndSearchIgnoringCaseAndAccents(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		c := s.owner
		all := names(t, c, "from=2026-11-01&to=2026-11-30")
		if !reflect.DeepEqual(all, []string{"Maria@11-10T10:00", "Maria@11-20T09:00", "Ana@11-23T08:00", "João@11-23T10:00", "Érica@11-25T11:00"}) {
			t.Fatalf("range: %v", all)
		}
		if got := names(t, c, "from=2026-11-01&to=2026-11-30&status=cancelled"); !reflect.DeepEqual(got, []string{"Ana@11-23T08:00"}) {
			t.Fatalf("status: %v", got)
		}
		if got := names(t, c, "from=2026-11-01&to=2026-11-30&q=erica"); !reflect.DeepEqual(got, []string{"Érica@11-25T11:00"}) {
			t.Fatalf("accents: %v", got)
		}
		if got := names(t, c, "from=2026-11-01&to=2026-11-30&q=MARIA2%40"); !reflect.DeepEqual(got, []string{"Maria@11-20T09:00"}) {
			t.Fatalf("e-mail: %v", got)
		}
		if got := names(t, c, "from=2026-11-01&to=2026-11-30&q=%25"); len(got) != 0 {
			t.Fatalf("a literal %% matches nothing: %v", got)
		}
		if got := names(t, c, "from=2026-11-01&to=2026-11-30&professional=other"); len(got) != 0 {
			t.Fatalf("professional filter: %v", got)
		}
		if r := c.Do("GET", "/api/appointments?from=2026-01-01&to=2026-12-31", nil); r.StatusCode != 400 {
			t.Fatalf("range too long: %d", r.StatusCode)
		}
	})
}

func TestAppointment_StatusChangeFreesThePublicSlotAndOthersGet404(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		other := setup(t, e, "outra@example.com", "outra")
		id := s.appointment["e1"]
		freeAt11 := func() bool {
			var out struct{ Times []string }
			e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/dona/times?date=2026-11-25&professional=%s&service=%s", s.pro, s.svc), nil).JSON(t, &out)
			return strings.Contains(strings.Join(out.Times, ","), "11:00")
		}
		if freeAt11() {
			t.Fatal("11:00 is booked")
		}
		// Another owner reaches nothing of it.
		for _, r := range []*servertest.Response{
			other.owner.Do("GET", "/api/appointments/"+id, nil),
			other.owner.Do("PATCH", "/api/appointments/"+id, map[string]string{"status": "cancelled"}),
		} {
			if r.StatusCode != 404 {
				t.Fatalf("another owner: %d %s", r.StatusCode, r.Body)
			}
		}
		if got := names(t, other.owner, "from=2026-11-01&to=2026-11-30"); len(got) != 0 {
			t.Fatalf("another owner's agenda shows %v", got)
		}
		var a struct{ Status, ClientPhone, ServiceName string }
		s.owner.Do("GET", "/api/appointments/"+id, nil).JSON(t, &a)
		if a.Status != "confirmed" || a.ClientPhone != "21922222222" || a.ServiceName != "Sessão" {
			t.Fatalf("%+v", a)
		}
		if r := s.owner.Do("PATCH", "/api/appointments/"+id, map[string]string{"status": "adiado"}); r.StatusCode != 400 {
			t.Fatalf("unknown status: %d", r.StatusCode)
		}
		s.owner.Do("PATCH", "/api/appointments/"+id, map[string]string{"status": "cancelled"}).JSON(t, &a)
		if a.Status != "cancelled" || !freeAt11() {
			t.Fatalf("cancelling must free 11:00: %+v", a)
		}
	})
}

func TestClients_AreDerivedByPhoneElseEmailAndExportForSpreadsheets(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		var out struct {
			Total   int
			Clients []struct {
				Name, Email, Phone, LastAttended, NextAppointment string
				AttendedCount, RevenueCents                       int
				ScheduledCount, ScheduledCents                    int
			}
		}
		s.owner.Do("GET", "/api/clients", nil).JSON(t, &out)
		var got []string
		for _, c := range out.Clients {
			got = append(got, fmt.Sprintf("%s|%s|%s|%d|%s|%d|%d|%s|%d", c.Name, c.Email, c.Phone, c.AttendedCount, c.LastAttended, c.RevenueCents,
				c.ScheduledCount, c.NextAppointment, c.ScheduledCents))
		}
		// Attended: completed and begun (m2, j0); scheduled: confirmed and
		// ahead (j1 today at 10:00, e1); m1 is past and only confirmed.
		want := []string{
			"Érica|erica@x.com|21922222222|0||0|1|2026-11-25|12000",
			"Ana|ana@x.com||0||0|0||0",
			"João|joao@x.com||1|2026-09-05|8000|1|2026-11-23|20000",
			"Maria|MARIA2@x.com|11911111111|1|2026-11-20|15000|0||0",
		}
		if out.Total != 4 || !reflect.DeepEqual(got, want) {
			t.Fatalf("total %d\n%v", out.Total, strings.Join(got, "\n"))
		}
		r := s.owner.Do("GET", "/api/clients/export", nil)
		if r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), `filename="clientes-agendei-2026-11-23.csv"`) {
			t.Fatalf("%d %v", r.StatusCode, r.Header)
		}
		// SPEC's columns first (the appointments not cancelled, the latest
		// of them, realized plus scheduled revenue: Maria's m1 is past and
		// only confirmed, so it counts as booked but earned nothing), then
		// what the numbers count.
		wantCSV := "\uFEFFNome;Email;Telefone;Agendamentos;Último Agendamento;Receita Total;" +
			"Atendimentos;Último atendimento;Receita realizada;Agendados;Próximo agendamento;Não compareceu\r\n" +
			"Érica;erica@x.com;21922222222;1;25/11/2026;R$ 120,00;0;;R$ 0,00;1;25/11/2026;0\r\n" +
			"Ana;ana@x.com;;0;;R$ 0,00;0;;R$ 0,00;0;;0\r\n" +
			"João;joao@x.com;;2;23/11/2026;R$ 280,00;1;05/09/2026;R$ 80,00;1;23/11/2026;0\r\n" +
			"Maria;MARIA2@x.com;11911111111;2;20/11/2026;R$ 150,00;1;20/11/2026;R$ 150,00;0;;0\r\n"
		if string(r.Body) != wantCSV {
			t.Fatalf("csv:\n%q\nwant\n%q", r.Body, wantCSV)
		}
		// Pages keep the order and the total; a page past the end is empty
		// and still counts everyone.
		for query, want := range map[string]string{"limit=2&offset=1": "Ana João", "limit=2&offset=10": ""} {
			var page struct {
				Total   int
				Clients []struct{ Name string }
			}
			s.owner.Do("GET", "/api/clients?"+query, nil).JSON(t, &page)
			var names []string
			for _, c := range page.Clients {
				names = append(names, c.Name)
			}
			if page.Total != 4 || strings.Join(names, " ") != want {
				t.Fatalf("%s: total %d, %v", query, page.Total, names)
			}
		}
		// Two appointments at the same date and time: the one booked last
		// gives the contacts shown.
		e.Clock.Advance(time.Minute)
		s.seed(t, e, []seed{{"e2", "2026-11-25", "11:00", "cancelled", "Érica Souza", "erica.nova@x.com", "21922222222", 12000}})
		out.Clients = nil
		s.owner.Do("GET", "/api/clients?limit=1", nil).JSON(t, &out)
		if len(out.Clients) != 1 {
			t.Fatalf("limit=1 gave %d clients", len(out.Clients))
		}
		if c := out.Clients[0]; c.Name != "Érica Souza" || c.Email != "erica.nova@x.com" || c.ScheduledCount != 1 || c.ScheduledCents != 12000 {
			t.Fatalf("latest contacts: %+v", c)
		}
	})
}

// This month (the default period) as the clock stands, 2026-11-23 09:00:
// m2 was attended; j1 (today at 10:00) and e1 are scheduled; m1 is past and
// still only confirmed (pending); a1 is cancelled; j0 is September's.
func TestReports_AggregateKnownData(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		var r struct {
			Period   struct{ Key, From, To string }
			Overview struct {
				TotalAppointments, UniqueClients, AttendedClients, RealizedCount, RealizedCents int
				ScheduledCount, ScheduledCents, PendingCount, PendingCents                      int
				RevenuePerClientCents, AveragePerAppointmentCents                               int
			}
			ByStatus    map[string]int
			RecentDates []struct {
				Date  string
				Count int
			}
			MonthlyRevenue []struct {
				Month                         string
				RealizedCents, ScheduledCents int
			}
		}
		s.owner.Do("GET", "/api/reports", nil).JSON(t, &r)
		if r.Period.Key != "month" || r.Period.From != "2026-11-01" || r.Period.To != "2026-11-30" {
			t.Fatalf("period %+v", r.Period)
		}
		o := r.Overview
		if o.TotalAppointments != 5 || o.UniqueClients != 4 || o.AttendedClients != 1 || o.RealizedCount != 1 || o.RealizedCents != 15000 ||
			o.ScheduledCount != 2 || o.ScheduledCents != 32000 || o.PendingCount != 1 || o.PendingCents != 10000 ||
			o.RevenuePerClientCents != 15000 || o.AveragePerAppointmentCents != 15000 {
			t.Fatalf("overview %+v", o)
		}
		if !reflect.DeepEqual(r.ByStatus, map[string]int{"confirmed": 3, "completed": 1, "cancelled": 1, "no_show": 0}) {
			t.Fatalf("by status %v", r.ByStatus)
		}
		var dates, months []string
		for _, d := range r.RecentDates {
			dates = append(dates, fmt.Sprintf("%s=%d", d.Date, d.Count))
		}
		for _, m := range r.MonthlyRevenue {
			months = append(months, fmt.Sprintf("%s=%d+%d", m.Month, m.RealizedCents, m.ScheduledCents))
		}
		// "Datas recentes": up to today (2026-11-23), never e1's 2026-11-25 still ahead.
		if strings.Join(dates, " ") != "2026-11-23=2 2026-11-20=1 2026-11-10=1" {
			t.Fatalf("dates %v", dates)
		}
		// The chart follows the period, this month (issue 39).
		if strings.Join(months, " ") != "2026-11=15000+32000" {
			t.Fatalf("months %v", months)
		}
		var none struct {
			Overview struct{ TotalAppointments int }
		}
		s.owner.Do("GET", "/api/reports?professional=nobody", nil).JSON(t, &none)
		if none.Overview.TotalAppointments != 0 {
			t.Fatal("professional filter")
		}
	})
}

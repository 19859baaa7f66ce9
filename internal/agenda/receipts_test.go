package agenda_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// The Receita Saúde's month (issue 43 §4's check): payments received in
// November — a deposit covering a price, a partial deposit and the rest
// marked by hand, a session marked by hand, a deposit for a December
// session, and a client without a CPF — are the receipts, and the
// Carnê-Leão file holds one line per payment with the payer's CPF, by the
// day received in the owner's zone (a deposit paid at 23:00 on 31 October
// in São Paulo is October's). The CPF goes with the client's erase.
func TestReceitaSaude_MonthReceiptsAndCarneLeaoFileMatchAHandCount(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		s := setup(t, e, "dona@example.com", "dona")
		other := setup(t, e, "outra@example.com", "outra")
		const maria, joao = "11911111111", "11922222222"
		s.seed(t, e, []seed{
			{"whole", "2026-11-03", "10:00", "completed", "Maria Souza", "maria@example.com", maria, 15000},
			{"partial", "2026-11-10", "10:00", "completed", "Maria Souza", "maria@example.com", maria, 15000},
			{"joao", "2026-11-12", "10:00", "completed", "João Lima", "", joao, 20000},
			{"hand", "2026-11-17", "10:00", "completed", "Maria Souza", "maria@example.com", maria, 15000},
			{"unpaid", "2026-11-19", "10:00", "completed", "Maria Souza", "maria@example.com", maria, 15000},
			{"december", "2026-12-02", "10:00", "confirmed", "Maria Souza", "maria@example.com", maria, 15000},
			{"october", "2026-10-28", "10:00", "completed", "Maria Souza", "maria@example.com", maria, 15000},
		})
		if _, err := e.DB.ExecContext(ctx, `UPDATE professionals SET council = 'CRP', council_uf = 'SP', council_number = '06/12345' WHERE id = ?`, s.pro); err != nil {
			t.Fatal(err)
		}
		s.deposit(t, e, "whole", 15000, "paid", time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC))
		s.deposit(t, e, "partial", 5000, "paid", time.Date(2026, 11, 8, 13, 0, 0, 0, time.UTC))
		s.deposit(t, e, "december", 3000, "paid", time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC))
		s.deposit(t, e, "october", 15000, "paid", time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)) // 31/10 23:00 in São Paulo
		for _, l := range []string{"partial", "joao", "hand"} {
			if r := s.owner.Do("PUT", "/api/appointments/"+s.appointment[l]+"/payment", map[string]bool{"paid": true}); r.StatusCode != 200 {
				t.Fatalf("mark %s: %d %s", l, r.StatusCode, r.Body)
			}
		}

		// Off: neither receipts nor file; bad input is refused in pt-BR.
		if r := s.owner.Do("GET", "/api/receita-saude/carne-leao?month=2026-11", nil); r.StatusCode != 409 || r.Err(t).Error.Code != "receipts_off" {
			t.Fatalf("file while off: %d %s", r.StatusCode, r.Body)
		}
		for _, bad := range []map[string]any{
			{"enabled": true, "document": "529.982.247-24", "occupation": "255"},
			{"enabled": true, "document": "", "occupation": "255"},
			{"enabled": true, "document": "52998224725", "occupation": "999"},
		} {
			if r := s.owner.Do("PUT", "/api/receita-saude/settings", bad); r.StatusCode != 400 {
				t.Fatalf("settings %v: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		var set struct {
			Enabled              bool
			Document, Occupation string
		}
		s.owner.Do("PUT", "/api/receita-saude/settings", map[string]any{"enabled": true, "document": "529.982.247-25", "occupation": "255"}).JSON(t, &set)
		if !set.Enabled || set.Document != "52998224725" || set.Occupation != "255" {
			t.Fatalf("settings saved: %+v", set)
		}
		// Maria's CPF, given by the owner on her page (a wrong one refused).
		if r := s.owner.Do("PUT", "/api/clients/contact", map[string]any{"identifier": maria, "name": "Maria Souza", "phone": maria, "email": "maria@example.com", "cpf": "111.444.777-36"}); r.StatusCode != 400 {
			t.Fatalf("wrong CPF: %d %s", r.StatusCode, r.Body)
		}
		var hist struct{ Client struct{ CPF string } }
		s.owner.Do("PUT", "/api/clients/contact", map[string]any{"identifier": maria, "name": "Maria Souza", "phone": maria, "email": "maria@example.com", "cpf": "111.444.777-35"}).JSON(t, &hist)
		if hist.Client.CPF != "11144477735" {
			t.Fatalf("client's CPF: %+v", hist.Client)
		}

		var m struct {
			Receipts []struct {
				AppointmentID, Part, Date, AmountWords, Council, PayerName, PayerCPF string
				AmountCents                                                          int64
			}
			MissingCPF int
			TotalCents int64
			Payee      string
		}
		if r := s.owner.Do("GET", "/api/receita-saude/receipts?month=2026-11", nil); r.StatusCode != 200 {
			t.Fatalf("receipts: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &m)
		}
		var got []string
		for _, x := range m.Receipts {
			got = append(got, x.Date+" "+x.Part+" "+x.AppointmentID+" "+x.PayerCPF)
		}
		want := []string{
			"2026-11-01 deposit " + s.appointment["whole"] + " 11144477735",
			"2026-11-08 deposit " + s.appointment["partial"] + " 11144477735",
			"2026-11-20 deposit " + s.appointment["december"] + " 11144477735",
			"2026-11-23 payment " + s.appointment["partial"] + " 11144477735",
			"2026-11-23 payment " + s.appointment["joao"] + " ",
			"2026-11-23 payment " + s.appointment["hand"] + " 11144477735",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("receipts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// 150 + 50 + 30 + 100 + 200 + 150 = 680, one without a CPF.
		if m.TotalCents != 68000 || m.MissingCPF != 1 || m.Payee != "52998224725" {
			t.Fatalf("total %d, missing %d, payee %q", m.TotalCents, m.MissingCPF, m.Payee)
		}
		if x := m.Receipts[3]; x.AmountCents != 10000 || x.AmountWords != "cem reais" || x.Council != "CRP 06/12345" || x.PayerName != "Maria Souza" {
			t.Fatalf("the partial's rest: %+v", x)
		}

		r := s.owner.Do("GET", "/api/receita-saude/carne-leao?month=2026-11", nil)
		if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") ||
			r.Header.Get("Content-Disposition") != `attachment; filename="carne-leao-2026-11.csv"` {
			t.Fatalf("file: %d %v %s", r.StatusCode, r.Header, r.Body)
		}
		line := func(day, value, history string) string {
			return day + ";R01.001.001;255;" + value + ";;" + history + ";PF;11144477735;11144477735;;;;\r\n"
		}
		wantFile := line("01/11/2026", "150,00", "Sinal do atendimento de 03/11/2026 - Sessão") +
			line("08/11/2026", "50,00", "Sinal do atendimento de 10/11/2026 - Sessão") +
			line("20/11/2026", "30,00", "Sinal do atendimento de 02/12/2026 - Sessão") +
			line("23/11/2026", "100,00", "Atendimento de 10/11/2026 - Sessão") +
			line("23/11/2026", "150,00", "Atendimento de 17/11/2026 - Sessão")
		if string(r.Body) != wantFile {
			t.Fatalf("file:\n%s\nwant:\n%s", r.Body, wantFile)
		}
		// October holds the deposit paid at 23:00 on the 31st, local time.
		s.owner.Do("GET", "/api/receita-saude/receipts?month=2026-10", nil).JSON(t, &m)
		if len(m.Receipts) != 1 || m.Receipts[0].Date != "2026-10-31" || m.Receipts[0].AppointmentID != s.appointment["october"] {
			t.Fatalf("october: %+v", m.Receipts)
		}

		// Another owner reads nothing of these; a CNPJ payee has no file.
		if r := other.owner.Do("GET", "/api/receita-saude/receipts?month=2026-11", nil); r.StatusCode != 409 {
			t.Fatalf("another owner's receipts: %d %s", r.StatusCode, r.Body)
		}
		other.owner.Do("PUT", "/api/receita-saude/settings", map[string]any{"enabled": true, "document": "11.222.333/0001-81", "occupation": "255"})
		if r := other.owner.Do("GET", "/api/receita-saude/carne-leao?month=2026-11", nil); r.StatusCode != 409 || r.Err(t).Error.Code != "payee_cnpj" {
			t.Fatalf("CNPJ file: %d %s", r.StatusCode, r.Body)
		}
		var others struct{ Receipts []any }
		other.owner.Do("GET", "/api/receita-saude/receipts?month=2026-11", nil).JSON(t, &others)
		if len(others.Receipts) != 0 {
			t.Fatalf("another owner's month: %+v", others)
		}

		// The client's LGPD copy lists it; the erase takes it with the name and contacts.
		if r := s.owner.Do("GET", "/api/clients/data?key="+s.appointment["hand"], nil); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"11144477735"`) {
			t.Fatalf("LGPD copy: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": maria, "confirm": true}); r.StatusCode != 200 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		}
		var left int
		if err := e.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM appointments WHERE payer_cpf <> ''`).Scan(&left); err != nil || left != 0 {
			t.Fatalf("CPFs left after the erase: %d %v", left, err)
		}
	})
}

// The public booking form asks the payer's CPF only while the owner's
// receipts are on (the public profile says so): a wrong CPF is refused in
// pt-BR, a right one lands on the appointment as digits and shows on the
// client's page; while off, a CPF sent anyway is not kept.
func TestReceitaSaude_PublicBookingAsksTheCPFOnlyWhileReceiptsAreOn(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		book := func(at, cpf string) *servertest.Response {
			c := e.Client()
			c.ForwardedFor = "10.9.9." + at[:2]
			return c.Do("POST", "/api/public/profiles/dona/bookings", map[string]string{"professionalId": s.pro, "serviceId": s.svc, "date": "2026-11-25", "time": at,
				"clientName": "Rosa Alves", "clientPhone": "(11) 96666-5555", "clientCpf": cpf})
		}
		asks := func() bool {
			var p struct{ AskPayerCpf bool }
			e.Client().Do("GET", "/api/public/profiles/dona", nil).JSON(t, &p)
			return p.AskPayerCpf
		}
		cpfOf := func(id string) (cpf string) {
			if err := e.DB.QueryRowContext(context.Background(), `SELECT payer_cpf FROM appointments WHERE id = ?`, id).Scan(&cpf); err != nil {
				t.Fatal(err)
			}
			return cpf
		}
		if asks() {
			t.Fatal("the form asks the CPF while receipts are off")
		}
		var b struct{ ID string }
		if r := book("10:00", "111.444.777-35"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &b)
		}
		if b.ID == "" || cpfOf(b.ID) != "" {
			t.Fatalf("kept a CPF nobody asked for: %q", cpfOf(b.ID))
		}
		s.owner.Do("PUT", "/api/receita-saude/settings", map[string]any{"enabled": true, "document": "529.982.247-25", "occupation": "255"})
		if !asks() {
			t.Fatal("the form does not ask the CPF while receipts are on")
		}
		if r := book("11:00", "111.444.777-34"); r.StatusCode != 400 || r.Err(t).Error.Message != "CPF inválido: confira os 11 dígitos." {
			t.Fatalf("wrong CPF: %d %s", r.StatusCode, r.Body)
		}
		book("12:00", "111.444.777-35").JSON(t, &b)
		if cpfOf(b.ID) != "11144477735" {
			t.Fatalf("CPF kept: %q", cpfOf(b.ID))
		}
		var h struct{ Client struct{ CPF string } }
		s.owner.Do("GET", "/api/clients/history?key="+b.ID, nil).JSON(t, &h)
		if h.Client.CPF != "11144477735" {
			t.Fatalf("client's page: %+v", h.Client)
		}
	})
}

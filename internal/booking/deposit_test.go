package booking_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/server/servertest"
)

// withDeposit gives ana's shop a Pix key and a R$ 30,00 deposit on its
// service, held for holdMinutes.
func withDeposit(t *testing.T, e *servertest.Env, s shop, holdMinutes int) {
	t.Helper()
	c := ownerOf(t, e)
	if r := c.Do("PUT", "/api/pix", map[string]string{"keyType": "cpf", "key": "529.982.247-25", "name": "Ana Lúcia Terapias", "city": "São Paulo"}); r.StatusCode != 200 {
		t.Fatalf("pix: %d %s", r.StatusCode, r.Body)
	}
	r := c.Do("PUT", "/api/services/"+s.service, map[string]any{"name": "Sessão", "duration": 45, "priceCents": 15000,
		"deposit": map[string]any{"kind": "fixed", "value": 3000, "holdMinutes": holdMinutes, "keepOnLateCancel": true, "keepOnNoShow": true}})
	if r.StatusCode != 200 {
		t.Fatalf("policy: %d %s", r.StatusCode, r.Body)
	}
	if _, err := e.DB.ExecContext(context.Background(), `UPDATE profiles SET cancel_cutoff_hours = 24`); err != nil {
		t.Fatal(err)
	}
}

type card struct {
	ID      string
	Token   string
	Deposit *struct {
		AmountCents int64
		State       string
		ExpiresAt   time.Time
		CopyPaste   string
		Receiver    string
		Policy      string
	}
}

func depositState(t *testing.T, e *servertest.Env, id string) (deposit, status string) {
	t.Helper()
	if err := e.DB.QueryRowContext(context.Background(), `SELECT d.state, a.status FROM deposits d JOIN appointments a ON a.id = d.appointment_id WHERE a.id = ?`, id).
		Scan(&deposit, &status); err != nil {
		t.Fatal(err)
	}
	return deposit, status
}

func TestDeposit_HoldsTheTimeUntilTheOwnerConfirmsIt(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		withDeposit(t, e, s, 30)
		// The public page states the policy before booking.
		var pub struct {
			Services []struct {
				Deposit *struct {
					AmountCents int64
					Text        string
				}
			}
		}
		e.Client().Do("GET", "/api/public/profiles/ana", nil).JSON(t, &pub)
		if d := pub.Services[0].Deposit; d == nil || d.AmountCents != 3000 ||
			d.Text != "Sinal de R$ 30,00 via Pix para confirmar. Não reembolsável em caso de falta ou cancelamento com menos de 24 h." {
			t.Fatalf("public deposit: %+v", d)
		}
		r := book(e, s, nextMonday, "10:00")
		if r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		var b card
		r.JSON(t, &b)
		d := b.Deposit
		if d == nil || d.State != "pending" || d.AmountCents != 3000 || d.Receiver != "ANA LUCIA TERAPIAS" || !d.ExpiresAt.Equal(e.Clock.Now().Add(30*time.Minute)) {
			t.Fatalf("card deposit: %+v", d)
		}
		if !pix.Valid(d.CopyPaste) || !strings.Contains(d.CopyPaste, "0111"+"52998224725") || !strings.Contains(d.CopyPaste, "540530.00") ||
			!strings.Contains(d.CopyPaste, "6009SAO PAULO") {
			t.Fatalf("copy and paste: %s", d.CopyPaste)
		}
		// The private page shows the same Pix, and its QR image.
		var priv struct {
			Status  string
			Deposit *struct{ State, CopyPaste string }
		}
		e.Client().Do("GET", "/api/public/bookings/"+b.Token, nil).JSON(t, &priv)
		if priv.Deposit == nil || priv.Deposit.State != "pending" || priv.Deposit.CopyPaste != d.CopyPaste {
			t.Fatalf("private page: %+v", priv)
		}
		if r := e.Client().Do("GET", "/api/public/bookings/"+b.Token+"/pix.png", nil); r.StatusCode != 200 || !strings.HasPrefix(string(r.Body), "\x89PNG") {
			t.Fatalf("pix.png: %d", r.StatusCode)
		}
		// Aguardando sinal holds the time for everyone.
		if got := times(t, e, s, nextMonday); strings.Contains(strings.Join(got, ","), "10:00") {
			t.Fatalf("a held time is offered: %v", got)
		}
		if r := book(e, s, nextMonday, "10:00"); r.StatusCode != 409 {
			t.Fatalf("second booking of a held time: %d", r.StatusCode)
		}
		// The client gets the Pix, not a confirmation.
		var client string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "To: <maria@example.com>") {
				client += unfold(m.Raw)
			}
		}
		if !strings.Contains(client, "Pix Copia e Cola") || !strings.Contains(client, d.CopyPaste) || !strings.Contains(client, "pix-qrcode.png") ||
			strings.Contains(client, "agendamento.ics") {
			t.Fatalf("client's mail before payment:\n%s", client)
		}
		// The owner's list, then "Sinal recebido".
		owner := ownerOf(t, e)
		var pending []struct{ AppointmentID string }
		owner.Do("GET", "/api/deposits/pending", nil).JSON(t, &pending)
		if len(pending) != 1 || pending[0].AppointmentID != b.ID {
			t.Fatalf("pending: %+v", pending)
		}
		for range 2 { // a second tap changes nothing
			if r := owner.Do("POST", "/api/appointments/"+b.ID+"/deposit/received", nil); r.StatusCode != 200 {
				t.Fatalf("received: %d %s", r.StatusCode, r.Body)
			}
		}
		if dep, st := depositState(t, e, b.ID); dep != "paid" || st != "confirmed" {
			t.Fatalf("after Sinal recebido: %s %s", dep, st)
		}
		if r := e.Client().Do("GET", "/api/public/bookings/"+b.Token+"/pix.png", nil); r.StatusCode != 404 {
			t.Fatalf("pix.png once paid: %d", r.StatusCode)
		}
		confirmations := 0
		for _, m := range e.Mails() {
			if raw := unfold(m.Raw); strings.Contains(raw, "To: <maria@example.com>") && strings.Contains(raw, "agendamento.ics") {
				confirmations++
			}
		}
		if confirmations != 1 {
			t.Fatalf("%d confirmations after payment", confirmations)
		}
		var det struct {
			History []struct{ State, Source string }
		}
		owner.Do("GET", "/api/appointments/"+b.ID+"/deposit", nil).JSON(t, &det)
		if fmt.Sprint(det.History) != "[{pending client} {paid owner}]" {
			t.Fatalf("history %v", det.History)
		}
		// The job at the old deadline finds it paid and leaves it.
		e.Clock.Advance(31 * time.Minute)
		e.RunJobs()
		if dep, st := depositState(t, e, b.ID); dep != "paid" || st != "confirmed" {
			t.Fatalf("after the deadline: %s %s", dep, st)
		}
	})
}

// A hold awaiting its Pix is its own status (issue 39 §5): every answer says
// awaiting_deposit, it holds its time, and nothing counts it as confirmed —
// the dashboard's confirmed and revenue, the reports' "Receita agendada",
// the reminders — and a bare "confirmed" cannot skip the deposit. "Sinal
// recebido" turns it confirmed, with its reminders, in one step.
func TestDeposit_AwaitingDepositIsItsOwnStatusUntilPaid(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		withDeposit(t, e, s, 60)
		r := book(e, s, nextMonday, "10:00")
		if r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		var b card
		r.JSON(t, &b)
		owner := ownerOf(t, e)
		status := func() (owners, clients string) {
			t.Helper()
			var a, c struct{ Status string }
			owner.Do("GET", "/api/appointments/"+b.ID, nil).JSON(t, &a)
			e.Client().Do("GET", "/api/public/bookings/"+b.Token, nil).JSON(t, &c)
			return a.Status, c.Status
		}
		reminders := func() (n int) {
			t.Helper()
			if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE kind = 'booking.reminder' AND appointment_id = ? AND done_at IS NULL`, b.ID).
				Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		type money struct {
			Metrics struct {
				Total, Confirmed int
				RevenueCents     int64
			}
		}
		type report struct {
			Overview struct{ ScheduledCount, ScheduledCents int64 }
			ByStatus map[string]int
		}
		var dash money
		var rep report
		if o, c := status(); o != "awaiting_deposit" || c != "awaiting_deposit" {
			t.Fatalf("the hold's status: owner %q, client %q", o, c)
		}
		if got := times(t, e, s, nextMonday); strings.Contains(strings.Join(got, ","), "10:00") {
			t.Fatalf("a hold awaiting its deposit frees its time: %v", got)
		}
		owner.Do("GET", "/api/dashboard", nil).JSON(t, &dash)
		if dash.Metrics.Total != 1 || dash.Metrics.Confirmed != 0 || dash.Metrics.RevenueCents != 0 {
			t.Fatalf("dashboard counts an unpaid hold: %+v", dash.Metrics)
		}
		owner.Do("GET", "/api/reports?period=custom&from="+nextMonday+"&to="+nextMonday, nil).JSON(t, &rep)
		if rep.Overview.ScheduledCount != 0 || rep.Overview.ScheduledCents != 0 || rep.ByStatus["confirmed"] != 0 || rep.ByStatus["awaiting_deposit"] != 1 {
			t.Fatalf("reports count an unpaid hold: %+v", rep)
		}
		if n := reminders(); n != 0 {
			t.Fatalf("%d reminders planned for an unpaid hold", n)
		}
		if r := owner.Do("PATCH", "/api/appointments/"+b.ID, map[string]string{"status": "confirmed"}); r.StatusCode != 409 ||
			!strings.Contains(string(r.Body), "Sinal recebido") {
			t.Fatalf("a bare confirm of an unpaid hold: %d %s", r.StatusCode, r.Body)
		}
		if r := owner.Do("POST", "/api/appointments/"+b.ID+"/deposit/received", nil); r.StatusCode != 200 {
			t.Fatalf("received: %d %s", r.StatusCode, r.Body)
		}
		if o, c := status(); o != "confirmed" || c != "confirmed" {
			t.Fatalf("after Sinal recebido: owner %q, client %q", o, c)
		}
		owner.Do("GET", "/api/dashboard", nil).JSON(t, &dash)
		if dash.Metrics.Confirmed != 1 || dash.Metrics.RevenueCents != 15000 {
			t.Fatalf("dashboard once paid: %+v", dash.Metrics)
		}
		rep = report{}
		owner.Do("GET", "/api/reports?period=custom&from="+nextMonday+"&to="+nextMonday, nil).JSON(t, &rep)
		if rep.Overview.ScheduledCents != 15000 || rep.ByStatus["confirmed"] != 1 || rep.ByStatus["awaiting_deposit"] != 0 {
			t.Fatalf("reports once paid: %+v", rep)
		}
		if n := reminders(); n == 0 {
			t.Fatal("no reminder planned once paid")
		}
	})
}

func TestDeposit_UnpaidIsReleasedAtItsDeadlineAndOfferedAgain(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		withDeposit(t, e, s, 10)
		var b card
		r := book(e, s, nextMonday, "11:00")
		if r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &b)
		e.Clock.Advance(9 * time.Minute)
		e.RunJobs()
		if dep, st := depositState(t, e, b.ID); dep != "pending" || st != "awaiting_deposit" {
			t.Fatalf("before the deadline: %s %s", dep, st)
		}
		mailsBefore := len(e.Mails())
		e.Clock.Advance(time.Minute)
		e.RunJobs()
		if dep, st := depositState(t, e, b.ID); dep != "expired" || st != "cancelled" {
			t.Fatalf("after the deadline: %s %s", dep, st)
		}
		if got := times(t, e, s, nextMonday); !strings.Contains(strings.Join(got, ","), "11:00") {
			t.Fatalf("the released time is not offered again: %v", got)
		}
		var freed int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE kind = 'waitlist.freed'`).Scan(&freed); err != nil || freed != 1 {
			t.Fatalf("%d freed-time jobs for the waitlist, %v", freed, err)
		}
		var told bool
		for _, m := range e.Mails()[mailsBefore:] {
			if raw := unfold(m.Raw); strings.Contains(raw, "To: <maria@example.com>") && strings.Contains(raw, "foi liberado") {
				told = true
			}
		}
		if !told {
			t.Fatal("the client was not told")
		}
		if got := notifications(t, e); !strings.Contains(strings.Join(got, "|"), "Sinal não pago: horário liberado") {
			t.Fatalf("owner not notified: %v", got)
		}
		// A late "Sinal recebido" confirms nothing.
		r = ownerOf(t, e).Do("POST", "/api/appointments/"+b.ID+"/deposit/received", nil)
		if r.StatusCode != 409 || r.Err(t).Error.Code != "deposit_expired" {
			t.Fatalf("late Sinal recebido: %d %s", r.StatusCode, r.Body)
		}
		if dep, st := depositState(t, e, b.ID); dep != "expired" || st != "cancelled" {
			t.Fatalf("after the late tap: %s %s", dep, st)
		}
	})
}

func TestDeposit_FiftyRacersWithDepositsGetOneHold(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		withDeposit(t, e, s, 30)
		peer := e.Peer()
		var wg sync.WaitGroup
		codes := make(chan int, 50)
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes <- bookFrom([]*servertest.Env{e, peer}[i%2], fmt.Sprintf("10.9.%d.%d", i/200, i%200+1), s, nextMonday, "10:00").StatusCode
			}()
		}
		wg.Wait()
		close(codes)
		created := 0
		for c := range codes {
			if c == 201 {
				created++
			} else if c != 409 {
				t.Errorf("status %d", c)
			}
		}
		var holds, pending int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE status = 'awaiting_deposit'`).Scan(&holds); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM deposits WHERE state = 'pending'`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if created != 1 || holds != 1 || pending != 1 {
			t.Fatalf("%d created, %d holding, %d pending deposits", created, holds, pending)
		}
	})
}

func TestDeposit_FollowsCancellationsAndNoShowsAndIsReturned(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		withDeposit(t, e, s, 30) // cutoff 24 h
		owner := ownerOf(t, e)
		paid := func(at string) card {
			var b card
			r := book(e, s, nextMonday, at)
			if r.StatusCode != 201 {
				t.Fatalf("book %s: %d %s", at, r.StatusCode, r.Body)
			}
			r.JSON(t, &b)
			if r := owner.Do("POST", "/api/appointments/"+b.ID+"/deposit/received", nil); r.StatusCode != 200 {
				t.Fatalf("received: %d %s", r.StatusCode, r.Body)
			}
			return b
		}
		// Unpaid, cancelled by the client: the deposit is cancelled, nothing to return.
		var unpaid card
		book(e, s, nextMonday, "09:00").JSON(t, &unpaid)
		if r := e.Client().Do("POST", "/api/public/bookings/"+unpaid.Token+"/cancel", nil); r.StatusCode != 200 {
			t.Fatalf("client cancel: %d %s", r.StatusCode, r.Body)
		}
		if dep, _ := depositState(t, e, unpaid.ID); dep != "cancelled" {
			t.Fatalf("unpaid, cancelled: %s", dep)
		}
		if r := owner.Do("POST", "/api/appointments/"+unpaid.ID+"/deposit/returned", nil); r.StatusCode != 409 {
			t.Fatalf("returning an unpaid deposit: %d", r.StatusCode)
		}
		// Paid, cancelled in time (a week ahead, cutoff 24 h): to return; then "Sinal devolvido" with its date.
		timely := paid("10:00")
		if r := owner.Do("PATCH", "/api/appointments/"+timely.ID, map[string]any{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("owner cancel: %d %s", r.StatusCode, r.Body)
		}
		if dep, _ := depositState(t, e, timely.ID); dep != "to_return" {
			t.Fatalf("paid, cancelled in time: %s", dep)
		}
		for range 2 {
			if r := owner.Do("POST", "/api/appointments/"+timely.ID+"/deposit/returned", nil); r.StatusCode != 200 {
				t.Fatalf("returned: %d %s", r.StatusCode, r.Body)
			}
		}
		var det struct {
			State      string
			ReturnedAt *time.Time
			History    []struct{ State string }
		}
		owner.Do("GET", "/api/appointments/"+timely.ID+"/deposit", nil).JSON(t, &det)
		if det.State != "returned" || det.ReturnedAt == nil || !det.ReturnedAt.Equal(e.Clock.Now()) || len(det.History) != 4 {
			t.Fatalf("after Sinal devolvido: %+v", det)
		}
		// Paid, and the client does not come: retained.
		late := paid("11:00")
		e.Clock.Advance(7*24*time.Hour + 3*time.Hour) // Monday 12:00, after 11:00 began
		owner = ownerOf(t, e)
		if r := owner.Do("PATCH", "/api/appointments/"+late.ID, map[string]any{"status": "no_show"}); r.StatusCode != 200 {
			t.Fatalf("no-show: %d %s", r.StatusCode, r.Body)
		}
		if dep, _ := depositState(t, e, late.ID); dep != "retained" {
			t.Fatalf("paid, no-show: %s", dep)
		}
		// The client's LGPD export carries each deposit with its history.
		var key string
		if err := e.DB.QueryRowContext(context.Background(), `SELECT client_key FROM appointments WHERE id = ?`, late.ID).Scan(&key); err != nil {
			t.Fatal(err)
		}
		var export struct {
			Deposits []struct {
				State   string
				History []string
			}
		}
		owner.Do("GET", "/api/clients/data?format=json&key="+url.QueryEscape(key), nil).JSON(t, &export)
		states := []string{}
		for _, d := range export.Deposits {
			states = append(states, fmt.Sprintf("%s/%d", d.State, len(d.History)))
		}
		if strings.Join(states, ",") != "retained/3,returned/4,cancelled/2" {
			t.Fatalf("export deposits: %v", states)
		}
		// The reports: received, retained (revenue: the no-show's deposit), returned.
		var rep struct {
			Overview struct{ RealizedCents int64 }
			Deposits struct {
				ReceivedCount, RetainedCount, ReturnedCount, ToReturnCount int
				ReceivedCents, RetainedCents, ReturnedCents                int64
			}
		}
		if r := owner.Do("GET", "/api/reports?period=custom&from=2026-11-01&to=2026-12-31", nil); r.StatusCode != 200 {
			t.Fatalf("reports: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &rep)
		}
		if d := rep.Deposits; d.ReceivedCount != 2 || d.ReceivedCents != 6000 || d.RetainedCount != 1 || d.RetainedCents != 3000 || d.ReturnedCount != 1 ||
			d.ReturnedCents != 3000 || d.ToReturnCount != 0 || rep.Overview.RealizedCents != 3000 {
			t.Fatalf("reports: %+v", rep)
		}
	})
}

func TestDeposit_OwnerCreatedAppointmentCanAskForIt(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		owner := ownerOf(t, e)
		body := map[string]any{"professionalId": s.professional, "serviceId": s.service, "date": nextMonday, "time": "10:00",
			"clientName": "Rita Souza", "clientEmail": "rita@example.com", "chargeDeposit": true}
		// No deposit on the service yet: refused in Portuguese.
		if r := owner.Do("POST", "/api/appointments", body); r.StatusCode != 400 || r.Err(t).Error.Message != "Este serviço não tem sinal: defina o sinal no serviço para cobrá-lo." {
			t.Fatalf("no policy: %d %s", r.StatusCode, r.Body)
		}
		withDeposit(t, e, s, 60)
		body["repeat"] = map[string]any{"every": "week", "count": 3}
		if r := owner.Do("POST", "/api/appointments", body); r.StatusCode != 400 {
			t.Fatalf("a series with a deposit: %d %s", r.StatusCode, r.Body)
		}
		delete(body, "repeat")
		r := owner.Do("POST", "/api/appointments", body)
		if r.StatusCode != 201 {
			t.Fatalf("create: %d %s", r.StatusCode, r.Body)
		}
		var a struct{ ID string }
		r.JSON(t, &a)
		if dep, st := depositState(t, e, a.ID); dep != "pending" || st != "awaiting_deposit" {
			t.Fatalf("owner's appointment with a deposit: %s %s", dep, st)
		}
		var det struct {
			CopyPaste string
			History   []struct{ State, Source string }
		}
		owner.Do("GET", "/api/appointments/"+a.ID+"/deposit", nil).JSON(t, &det)
		if !pix.Valid(det.CopyPaste) || fmt.Sprint(det.History) != "[{pending owner}]" {
			t.Fatalf("deposit: %+v", det)
		}
		var pixMail bool
		for _, m := range e.Mails() {
			if raw := unfold(m.Raw); strings.Contains(raw, "To: <rita@example.com>") && strings.Contains(raw, det.CopyPaste) {
				pixMail = true
			}
		}
		if !pixMail {
			t.Fatal("the client was not sent the Pix")
		}
	})
}

// An appointment marked attended while its Pix was still due, then paid
// before the deadline: the payment is received — no "pago após o prazo", no
// refusal — and the appointment stays attended.
func TestDeposit_PaidInTimeAfterTheAppointmentWasMarkedCompletedIsReceived(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		withDeposit(t, e, s, 1440)
		owner := ownerOf(t, e)
		var b card
		r := book(e, s, "2026-11-23", "11:00") // today, 2 h ahead of the clock
		if r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &b)
		e.Clock.Advance(3 * time.Hour) // the session has begun; the deposit is due until tomorrow
		if r := owner.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("login: %d", r.StatusCode)
		}
		if r := owner.Do("PATCH", "/api/appointments/"+b.ID, map[string]any{"status": "completed"}); r.StatusCode != 200 {
			t.Fatalf("completed: %d %s", r.StatusCode, r.Body)
		}
		if r := owner.Do("POST", "/api/appointments/"+b.ID+"/deposit/received", nil); r.StatusCode != 200 {
			t.Fatalf("Sinal recebido after completed: %d %s", r.StatusCode, r.Body)
		}
		if dep, st := depositState(t, e, b.ID); dep != "paid" || st != "completed" {
			t.Fatalf("after the payment: deposit %s, appointment %s", dep, st)
		}
		var notes struct{ Notifications []struct{ Title string } }
		owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		for _, n := range notes.Notifications {
			if strings.Contains(n.Title, "após o prazo") {
				t.Fatalf("a payment in time was told late: %+v", notes)
			}
		}
	})
}

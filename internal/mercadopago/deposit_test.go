package mercadopago_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mercadopago"
	"github.com/agendei/agendei/internal/mercadopago/mptest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// withDepositPolicy puts a R$ 30,00 deposit, held holdMinutes, on the
// owner's service.
func (w *world) withDepositPolicy(t *testing.T, holdMinutes int) {
	t.Helper()
	if r := w.owner.Do("PUT", "/api/services/"+w.svcID, map[string]any{"name": "Limpeza", "duration": 30, "priceCents": 15000,
		"deposit": map[string]any{"kind": "fixed", "value": 3000, "holdMinutes": holdMinutes, "keepOnLateCancel": true, "keepOnNoShow": true}}); r.StatusCode != 200 {
		t.Fatalf("policy: %d %s", r.StatusCode, r.Body)
	}
}

type booking struct {
	ID      string
	Token   string // the client's private link
	Deposit *struct {
		AmountCents int64
		State       string
		ExpiresAt   time.Time
		CopyPaste   string
		Receiver    string
	}
}

// bookAt books the owner's service at 2026-11-26 hhmm for a client; code is the answer's status.
func (w *world) bookAt(t *testing.T, hhmm, name, email string) (booking, int) {
	t.Helper()
	r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
		"professionalId": w.proID, "serviceId": w.svcID, "date": "2026-11-26", "time": hhmm,
		"clientName": name, "clientPhone": "(11) 97777-6666", "clientEmail": email})
	var b booking
	if r.StatusCode == 201 {
		r.JSON(t, &b)
	}
	return b, r.StatusCode
}

func (w *world) state(t *testing.T, apptID string) (deposit, status string, late bool) {
	t.Helper()
	if err := w.e.DB.QueryRowContext(context.Background(), `SELECT d.state, a.status, d.late_payment FROM deposits d JOIN appointments a ON a.id = d.appointment_id
		WHERE a.id = ?`, apptID).Scan(&deposit, &status, &late); err != nil {
		t.Fatal(err)
	}
	return deposit, status, late
}

// paymentOf is the Mercado Pago payment made for a booking's deposit.
func (w *world) paymentOf(t *testing.T, apptID string) mptest.Payment {
	t.Helper()
	var ref, provider, providerRef string
	if err := w.e.DB.QueryRowContext(context.Background(), `SELECT reference, provider, provider_ref FROM deposits WHERE appointment_id = ?`, apptID).
		Scan(&ref, &provider, &providerRef); err != nil {
		t.Fatal(err)
	}
	p, ok := w.fake.Payment(providerRef)
	if provider != "mercadopago" || !ok || p.ExternalReference != ref {
		t.Fatalf("deposit %s/%s/%s, payment %+v", provider, ref, providerRef, p)
	}
	return p
}

func confirmations(e *servertest.Env, to string) int {
	n := 0
	for _, m := range e.Mails() {
		raw := strings.NewReplacer("=\r\n", "", "\r\n ", " ", "\r\n\t", " ").Replace(m.Raw)
		if strings.Contains(raw, "To: <"+to+">") && strings.Contains(raw, "agendamento.ics") {
			n++
		}
	}
	return n
}

func TestDeposit_APaidPixConfirmsTheBookingOnceAndAForgedNoticeNothing(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.withDepositPolicy(t, 30)
		w.connect(t)
		b, code := w.bookAt(t, "15:00", "Carla", "carla@example.com")
		if code != 201 || b.Deposit == nil || b.Deposit.State != "pending" || b.Deposit.AmountCents != 3000 {
			t.Fatalf("booking: %d %+v", code, b.Deposit)
		}
		p := w.paymentOf(t, b.ID)
		// The card shows Mercado Pago's copy-and-paste text; the Pix expires with the hold.
		if b.Deposit.CopyPaste != p.QRCode || p.AmountCents != 3000 || p.PayerEmail != "carla@example.com" ||
			!p.ExpiresAt.Equal(w.e.Clock.Now().Add(mercadopago.MinPixLife)) || !b.Deposit.ExpiresAt.Equal(w.e.Clock.Now().Add(30*time.Minute)) {
			t.Fatalf("card %+v, payment %+v", b.Deposit, p)
		}
		if b.Deposit.Receiver != "CLINICA TESTE" { // the BR Code's merchant name, as the client's bank shows it
			t.Fatalf("receiver %q", b.Deposit.Receiver)
		}
		w.e.RunJobs()
		if n := confirmations(w.e, "carla@example.com"); n != 0 {
			t.Fatalf("%d confirmations before payment", n)
		}
		// Forged: nothing moves, even once the payment is approved.
		w.fake.Approve(itoa(p.ID))
		forged := w.fake.NotifyTo(p.NotificationURL, "not-the-owners-secret-0000", itoa(p.ID), "payment.updated")
		if code, _ := forged.Send(); code != 401 {
			t.Fatalf("forged: %d", code)
		}
		if dep, st, _ := w.state(t, b.ID); dep != "pending" || st != "awaiting_deposit" {
			t.Fatalf("after a forged notice: %s %s", dep, st)
		}
		// Signed: read through the API, approved, confirmed.
		n := w.fake.Notify(itoa(p.ID))
		if code, err := n.Send(); err != nil || code != 200 {
			t.Fatalf("signed: %d %v", code, err)
		}
		if dep, st, _ := w.state(t, b.ID); dep != "paid" || st != "confirmed" {
			t.Fatalf("after payment: %s %s", dep, st)
		}
		// Replayed, and delivered again with a new request id (Mercado Pago's
		// retries and the panel's copy): nothing twice.
		if code, _ := n.Send(); code != 200 {
			t.Fatalf("replay: %d", code)
		}
		if code, _ := w.fake.Notify(itoa(p.ID)).Send(); code != 200 {
			t.Fatalf("duplicate: %d", code)
		}
		w.e.RunJobs()
		if n := confirmations(w.e, "carla@example.com"); n != 1 {
			t.Fatalf("%d confirmations after payment", n)
		}
		var det struct {
			History []struct{ State, Source string }
		}
		w.owner.Do("GET", "/api/appointments/"+b.ID+"/deposit", nil).JSON(t, &det)
		if len(det.History) != 2 || det.History[1].State != "paid" || det.History[1].Source != "mercadopago" {
			t.Fatalf("history %+v", det.History)
		}
		w.noProblems(t)
	})
}

func TestDeposit_APixPaidAfterTheHoldEndedIsFlaggedForReturnAndNeverDoubleBooks(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.withDepositPolicy(t, 30)
		w.connect(t)
		late, code := w.bookAt(t, "16:00", "Davi", "davi@example.com")
		if code != 201 {
			t.Fatalf("booking: %d", code)
		}
		p := w.paymentOf(t, late.ID)
		// The hold ends unpaid; the time is released and someone else takes it.
		w.e.Clock.Advance(30*time.Minute + time.Second)
		w.e.RunJobs()
		if dep, st, _ := w.state(t, late.ID); dep != "expired" || st != "cancelled" {
			t.Fatalf("after the hold: %s %s", dep, st)
		}
		next, code := w.bookAt(t, "16:00", "Elisa", "elisa@example.com")
		if code != 201 {
			t.Fatalf("the released time: %d", code)
		}
		// Davi's Pix is paid now (still valid at Mercado Pago): flagged for return, not confirmed.
		w.fake.Approve(itoa(p.ID))
		n := w.fake.Notify(itoa(p.ID))
		if code, _ := n.Send(); code != 200 {
			t.Fatalf("late notice: %d", code)
		}
		if dep, st, flagged := w.state(t, late.ID); dep != "to_return" || st != "cancelled" || !flagged {
			t.Fatalf("late payment: %s %s late=%v", dep, st, flagged)
		}
		for range 2 { // replayed and redelivered: flagged once
			if code, _ := w.fake.Notify(itoa(p.ID)).Send(); code != 200 {
				t.Fatalf("late duplicate: %d", code)
			}
		}
		var active, events int
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE status <> 'cancelled' AND client_name IN ('Davi', 'Elisa')`).Scan(&active); err != nil {
			t.Fatal(err)
		}
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM deposit_events WHERE appointment_id = ? AND state = 'to_return'`, late.ID).Scan(&events); err != nil {
			t.Fatal(err)
		}
		if active != 1 || events != 1 {
			t.Fatalf("%d active appointments at 16:00, %d to_return events", active, events)
		}
		if dep, st, _ := w.state(t, next.ID); dep != "pending" || st != "awaiting_deposit" {
			t.Fatalf("Elisa's hold: %s %s", dep, st)
		}
		var outcome string
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT outcome FROM mercadopago_payments WHERE payment_id = ?`, itoa(p.ID)).Scan(&outcome); err != nil || outcome != "refund" {
			t.Fatalf("outcome %q %v", outcome, err)
		}
		w.noProblems(t)
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Mercado Pago needs the payer's e-mail: a client who booked with a phone
// alone gets the owner's static Pix, confirmed by "Sinal recebido".
func TestDeposit_AClientWithoutEMailGetsTheStaticPix(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.withDepositPolicy(t, 30)
		w.connect(t)
		if r := w.owner.Do("PUT", "/api/pix", map[string]string{"keyType": "cpf", "key": "529.982.247-25", "name": "Ana Lúcia Terapias", "city": "São Paulo"}); r.StatusCode != 200 {
			t.Fatalf("pix: %d %s", r.StatusCode, r.Body)
		}
		b, code := w.bookAt(t, "17:00", "Fabio", "")
		if code != 201 || b.Deposit == nil || !strings.Contains(b.Deposit.CopyPaste, "52998224725") || b.Deposit.Receiver != "ANA LUCIA TERAPIAS" {
			t.Fatalf("booking: %d %+v", code, b.Deposit)
		}
		if n := w.fake.Creates(); n != 0 {
			t.Fatalf("%d payments at Mercado Pago for a client without e-mail", n)
		}
	})
}

// A client who paid in time is confirmed even when Mercado Pago's
// notification never arrives: the payment is read shortly before the hold
// ends, ahead of the expiry.
func TestDeposit_APaidPixWhoseNoticeWasLostIsFoundBeforeTheHoldEnds(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.withDepositPolicy(t, 30)
		w.connect(t)
		b, code := w.bookAt(t, "15:30", "Gabi", "gabi@example.com")
		if code != 201 {
			t.Fatalf("booking: %d", code)
		}
		p := w.paymentOf(t, b.ID)
		w.e.Clock.Advance(20 * time.Minute)
		w.e.RunJobs()
		if dep, _, _ := w.state(t, b.ID); dep != "pending" {
			t.Fatalf("before the check: %s", dep)
		}
		w.fake.Approve(itoa(p.ID)) // paid; the notice is lost
		w.e.Clock.Advance(10*time.Minute + time.Second)
		w.e.RunJobs()
		if dep, st, late := w.state(t, b.ID); dep != "paid" || st != "confirmed" || late {
			t.Fatalf("after the hold's end: %s %s late=%v", dep, st, late)
		}
		if n := confirmations(w.e, "gabi@example.com"); n != 1 {
			t.Fatalf("%d confirmations", n)
		}
		w.noProblems(t)
	})
}

// A charge that failed at booking is made again only by the client's tap
// on their private page ("Gerar o código Pix"), never by opening the link:
// mail and WhatsApp link scanners open every link of a message, and each
// open would have created a payment at Mercado Pago (issue 38, point 4).
func TestDeposit_AFailedChargeIsMadeAgainByTheClientsTapNeverByOpeningTheLink(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.withDepositPolicy(t, 30)
		w.connect(t)
		w.fake.FailNext(1, 400)
		b, code := w.bookAt(t, "16:00", "Gabi", "gabi@example.com")
		if code != 201 || b.Deposit == nil || b.Deposit.State != "pending" || b.Deposit.CopyPaste != "" || b.Token == "" {
			t.Fatalf("booking with a failed charge: %d %+v", code, b.Deposit)
		}
		deposit := func() string {
			var ref, copyPaste string
			if err := w.e.DB.QueryRowContext(context.Background(), `SELECT provider_ref, payload FROM deposits WHERE appointment_id = ?`, b.ID).
				Scan(&ref, &copyPaste); err != nil {
				t.Fatal(err)
			}
			return ref + "|" + copyPaste
		}
		before, requests := deposit(), w.fake.Requests()
		for range 3 {
			for _, p := range []string{"/cancel/" + b.Token, "/api/public/bookings/" + b.Token, "/api/public/bookings/" + b.Token + "/pix.png"} {
				if r := w.e.Client().Do("GET", p, nil); r.StatusCode >= 500 {
					t.Fatalf("GET %s: %d %s", p, r.StatusCode, r.Body)
				}
			}
		}
		if after := deposit(); after != before || w.fake.Requests() != requests {
			t.Fatalf("opening the link charged: deposit %q → %q, %d → %d requests to Mercado Pago", before, after, requests, w.fake.Requests())
		}
		r := w.e.Client().Do("POST", "/api/public/bookings/"+b.Token+"/pix", nil)
		var c struct{ Deposit struct{ CopyPaste string } }
		r.JSON(t, &c)
		if r.StatusCode != 200 || c.Deposit.CopyPaste == "" || w.fake.Creates() != 1 {
			t.Fatalf("the tap: %d %s, %d payments", r.StatusCode, r.Body, w.fake.Creates())
		}
		p := w.paymentOf(t, b.ID)
		if c.Deposit.CopyPaste != p.QRCode {
			t.Fatalf("the page shows %q, the payment's code is %q", c.Deposit.CopyPaste, p.QRCode)
		}
		// Tapped again: the Pix it has, no second payment.
		if r := w.e.Client().Do("POST", "/api/public/bookings/"+b.Token+"/pix", nil); r.StatusCode != 200 || w.fake.Creates() != 1 {
			t.Fatalf("a second tap: %d %s, %d payments", r.StatusCode, r.Body, w.fake.Creates())
		}
	})
}

// An owner charging by Mercado Pago with no Pix key of their own, and a
// client who gives only a phone: Mercado Pago's Pix needs an e-mail, so the
// booking asks no deposit — no hold for a payment no one can make — and the
// owner is told why.
func TestDeposit_AClientNoOneCanChargeBooksWithoutADepositAndTheOwnerIsTold(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.withDepositPolicy(t, 30)
		w.connect(t)
		b, code := w.bookAt(t, "17:00", "Fabio", "")
		if code != 201 || b.Deposit != nil {
			t.Fatalf("booking: %d %+v", code, b.Deposit)
		}
		var n int
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM deposits WHERE appointment_id = ?`, b.ID).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d deposits (%v) for a client no one can charge", n, err)
		}
		if w.fake.Creates() != 0 {
			t.Fatal("a payment was made at Mercado Pago without the payer's e-mail")
		}
		var notes struct {
			Notifications []struct{ Title, Description string }
		}
		w.owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		told := false
		for _, n := range notes.Notifications {
			told = told || (n.Title == "Agendamento sem sinal" && strings.Contains(n.Description, "chave Pix"))
		}
		if !told {
			t.Fatalf("the owner was not told: %+v", notes)
		}
		// The owner asking for it by hand is refused, saying what would work.
		r := w.owner.Do("POST", "/api/appointments", map[string]any{"professionalId": w.proID, "serviceId": w.svcID, "date": "2026-11-26", "time": "15:00",
			"clientName": "Gil", "clientPhone": "(11) 96666-5555", "chargeDeposit": true})
		if r.StatusCode != 400 || !strings.Contains(r.Err(t).Error.Message, "precisa do e-mail do cliente") {
			t.Fatalf("owner's deposit for a phone-only client: %d %s", r.StatusCode, r.Body)
		}
	})
}

// When Mercado Pago is slow, the booking does not wait for it: it answers
// within a short bound with its deposit pending; the private page reads and
// never calls Mercado Pago; the charge job makes the charge (the same
// payment: its idempotency key), and the client is e-mailed the Pix once.
func TestDeposit_ASlowMercadoPagoNeverHoldsTheBookingNorThePage(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.withDepositPolicy(t, 30)
		w.connect(t)
		w.fake.SlowNext(1, 6*time.Second)
		began := time.Now()
		r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
			"professionalId": w.proID, "serviceId": w.svcID, "date": "2026-11-26", "time": "17:00",
			"clientName": "Fabio", "clientPhone": "(11) 97777-6666", "clientEmail": "fabio@example.com"})
		if took := time.Since(began); took > 5*time.Second {
			t.Fatalf("the booking waited %s on Mercado Pago", took)
		}
		var b struct {
			ID, Token string
			Deposit   *struct{ State, CopyPaste string }
		}
		if r.StatusCode != 201 {
			t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &b)
		if b.Deposit == nil || b.Deposit.State != "pending" || b.Deposit.CopyPaste != "" {
			t.Fatalf("deposit while Mercado Pago is slow: %+v", b.Deposit)
		}
		before := w.fake.Requests()
		for range 3 {
			if r := w.e.Client().Do("GET", "/api/public/bookings/"+b.Token, nil); r.StatusCode != 200 {
				t.Fatalf("private page: %d %s", r.StatusCode, r.Body)
			}
		}
		if w.fake.Requests() != before {
			t.Fatalf("the private page called Mercado Pago %d times", w.fake.Requests()-before)
		}
		time.Sleep(4 * time.Second) // the slow creation ends at the fake
		w.e.Clock.Advance(10 * time.Second)
		w.e.RunJobs()
		w.e.RunJobs()
		var page struct{ Deposit *struct{ CopyPaste string } }
		w.e.Client().Do("GET", "/api/public/bookings/"+b.Token, nil).JSON(t, &page)
		if page.Deposit == nil || page.Deposit.CopyPaste == "" {
			t.Fatalf("after the charge job: %+v", page.Deposit)
		}
		if n := w.fake.Creates(); n != 1 {
			t.Fatalf("%d payments at Mercado Pago for one deposit", n)
		}
		pix := 0
		for _, m := range w.e.Mails() {
			if strings.Contains(m.Raw, "fabio@example.com") && strings.Contains(m.Raw, "Pague o sinal") {
				pix++
			}
		}
		if pix != 1 {
			t.Fatalf("%d Pix e-mails to the client", pix)
		}
		w.noProblems(t)
	})
}

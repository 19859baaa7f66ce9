package agenda_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/server/servertest"
)

type payment struct {
	AppointmentID        string
	PriceCents, DueCents int64
	DepositCents         int64
	PaidCents            int64
	Billable, Paid       bool
	ByDeposit            bool
	PaidAt               *time.Time
}

type statement struct {
	Month                           string
	Lines                           []payment
	TotalCents, PaidCents, DueCents int64
	Pix                             *struct{ CopyPaste, QRCode, Receiver string }
	Client                          struct{ Name, Email, Phone string }
	Message, WhatsappURL            string
}

// deposit writes a deposit the client paid by Pix for an appointment, as
// "Sinal recebido" or a provider's confirmation leaves it.
func (s *shop) deposit(t *testing.T, e *servertest.Env, label string, cents int64, state string, paidAt time.Time) {
	t.Helper()
	_, err := e.DB.ExecContext(context.Background(), `INSERT INTO deposits (appointment_id, user_id, amount_cents, state, reference, expires_at, paid_at,
		created_at, updated_at) SELECT id, user_id, ?, ?, ?, ?, ?, ?, ? FROM appointments WHERE id = ?`,
		cents, state, strings.ReplaceAll(uuid.NewString(), "-", "")[:20], paidAt, paidAt, paidAt, paidAt, s.appointment[label])
	if err != nil {
		t.Fatal(err)
	}
}

// A month of one client's sessions (issue 43 §4's check): one paid whole
// by a Pix deposit, one by a partial deposit, two marked by hand (one of
// them confirmed and past, never marked "Concluído"), one unpaid, and what
// does not count (a no-show, a cancellation, one ahead, another month).
// The statement's totals and lines are the hand count; the client history
// owes the month's due plus the other month's; the toggle refuses what it
// cannot mark, and another owner's ids answer 404.
func TestPayments_MonthOfSessionsMatchesAHandCount(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		other := setup(t, e, "outra@example.com", "outra")
		if r := s.owner.Do("PUT", "/api/pix", map[string]string{"keyType": "cpf", "key": "529.982.247-25", "name": "Dona Terapias", "city": "São Paulo"}); r.StatusCode != 200 {
			t.Fatalf("pix: %d %s", r.StatusCode, r.Body)
		}
		const phone, email = "11911111111", "maria@example.com"
		// The clock stands at 2026-11-23 09:00 in São Paulo.
		s.seed(t, e, []seed{
			{"byDeposit", "2026-11-03", "10:00", "completed", "Maria Souza", email, phone, 15000},
			{"partial", "2026-11-10", "10:00", "completed", "Maria Souza", email, phone, 15000},
			{"handConfirmed", "2026-11-12", "10:00", "confirmed", "Maria Souza", email, phone, 15000},
			{"hand", "2026-11-17", "10:00", "completed", "Maria Souza", email, phone, 15000},
			{"unpaid", "2026-11-19", "10:00", "completed", "Maria Souza", email, phone, 15000},
			{"noShow", "2026-11-20", "10:00", "no_show", "Maria Souza", email, phone, 15000},
			{"cancelled", "2026-11-05", "10:00", "cancelled", "Maria Souza", email, phone, 15000},
			{"ahead", "2026-11-25", "10:00", "confirmed", "Maria Souza", email, phone, 15000},
			{"october", "2026-10-28", "10:00", "completed", "Maria Souza", email, phone, 12000},
		})
		s.deposit(t, e, "byDeposit", 15000, "paid", time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC))
		s.deposit(t, e, "partial", 5000, "paid", time.Date(2026, 11, 8, 13, 0, 0, 0, time.UTC))
		// A deposit still pending is no payment.
		s.deposit(t, e, "unpaid", 15000, "pending", time.Date(2026, 11, 18, 13, 0, 0, 0, time.UTC))
		_, _ = e.DB.ExecContext(context.Background(), `UPDATE deposits SET paid_at = NULL WHERE appointment_id = ?`, s.appointment["unpaid"])

		mark := func(c *servertest.Client, id string, paid bool) (int, payment) {
			t.Helper()
			r := c.Do("PUT", "/api/appointments/"+id+"/payment", map[string]bool{"paid": paid})
			var p payment
			if r.StatusCode == 200 {
				r.JSON(t, &p)
			}
			return r.StatusCode, p
		}
		for _, l := range []string{"handConfirmed", "hand"} {
			if code, p := mark(s.owner, s.appointment[l], true); code != 200 || !p.Paid || p.PaidAt == nil || p.DueCents != 0 {
				t.Fatalf("mark %s paid: %d %+v", l, code, p)
			}
		}
		// A second tap changes nothing; what is not attended, or was paid by
		// its deposit whole, cannot be toggled; another owner's id is 404.
		if code, p := mark(s.owner, s.appointment["hand"], true); code != 200 || !p.Paid {
			t.Fatalf("second tap: %d %+v", code, p)
		}
		for l, want := range map[string]int{"ahead": 409, "noShow": 409, "cancelled": 409} {
			if code, _ := mark(s.owner, s.appointment[l], true); code != want {
				t.Fatalf("mark %s: %d, want %d", l, code, want)
			}
		}
		if code, _ := mark(s.owner, s.appointment["byDeposit"], false); code != 409 {
			t.Fatalf("unmark the deposit's: %d", code)
		}
		if code, _ := mark(other.owner, s.appointment["unpaid"], true); code != 404 {
			t.Fatalf("another owner's mark: %d", code)
		}
		if r := other.owner.Do("GET", "/api/appointments/"+s.appointment["unpaid"]+"/payment", nil); r.StatusCode != 404 {
			t.Fatalf("another owner's payment: %d", r.StatusCode)
		}
		var partial payment
		s.owner.Do("GET", "/api/appointments/"+s.appointment["partial"]+"/payment", nil).JSON(t, &partial)
		if partial.Paid || partial.DepositCents != 5000 || partial.DueCents != 10000 || !partial.Billable {
			t.Fatalf("partly covered: %+v", partial)
		}

		// The hand count of November: 5 sessions of R$ 150 = R$ 750; paid
		// 150 (deposit) + 50 (partial deposit) + 150 + 150 (by hand) = 500;
		// due 100 (the partial's rest) + 150 (unpaid) = 250.
		r := s.owner.Do("GET", "/api/clients/statement?key="+s.appointment["hand"]+"&month=2026-11", nil)
		if r.StatusCode != 200 {
			t.Fatalf("statement: %d %s", r.StatusCode, r.Body)
		}
		var st statement
		r.JSON(t, &st)
		var ids []string
		for _, l := range st.Lines {
			ids = append(ids, l.AppointmentID)
		}
		want := []string{s.appointment["byDeposit"], s.appointment["partial"], s.appointment["handConfirmed"], s.appointment["hand"], s.appointment["unpaid"]}
		if strings.Join(ids, ",") != strings.Join(want, ",") {
			t.Fatalf("statement lines %v, want %v", ids, want)
		}
		if st.TotalCents != 75000 || st.PaidCents != 50000 || st.DueCents != 25000 {
			t.Fatalf("totals %d / %d / %d, want 75000 / 50000 / 25000", st.TotalCents, st.PaidCents, st.DueCents)
		}
		if st.Pix == nil || !strings.Contains(st.Pix.CopyPaste, "5406250.00") || !strings.HasPrefix(st.Pix.QRCode, "data:image/png;base64,") {
			t.Fatalf("pix for R$ 250,00: %+v", st.Pix)
		}
		if !strings.HasPrefix(st.WhatsappURL, "https://wa.me/5511911111111?text=") || !strings.Contains(st.Message, "A pagar: R$ 250,00") {
			t.Fatalf("whatsapp %q, message %q", st.WhatsappURL, st.Message)
		}
		var hist struct {
			DueCents int64
			Payments []payment
		}
		s.owner.Do("GET", "/api/clients/history?key="+s.appointment["hand"], nil).JSON(t, &hist)
		if hist.DueCents != 25000+12000 || len(hist.Payments) != 6 {
			t.Fatalf("history owes %d over %d sessions, want 37000 over 6", hist.DueCents, len(hist.Payments))
		}
		// The reports' "A receber" for November: the partial's rest and the
		// unpaid session (another owner's month is empty).
		var rep struct {
			Overview struct {
				DueCount int
				DueCents int64
			}
		}
		s.owner.Do("GET", "/api/reports?period=month", nil).JSON(t, &rep)
		if rep.Overview.DueCount != 2 || rep.Overview.DueCents != 25000 {
			t.Fatalf("reports owe %+v, want 2 sessions, 25000", rep.Overview)
		}
		// Back to "A receber": the history (through the answer cache) follows.
		if code, p := mark(s.owner, s.appointment["hand"], false); code != 200 || p.Paid || p.PaidAt != nil || p.DueCents != 15000 {
			t.Fatalf("unmark: %d %+v", code, p)
		}
		s.owner.Do("GET", "/api/clients/history?key="+s.appointment["hand"], nil).JSON(t, &hist)
		if hist.DueCents != 25000+12000+15000 {
			t.Fatalf("history after unmarking owes %d", hist.DueCents)
		}

		// Tenancy and input.
		if r := other.owner.Do("GET", "/api/clients/statement?key="+s.appointment["hand"]+"&month=2026-11", nil); r.StatusCode != 404 {
			t.Fatalf("another owner's statement: %d", r.StatusCode)
		}
		if r := s.owner.Do("GET", "/api/clients/statement?key="+s.appointment["hand"]+"&month=11/2026", nil); r.StatusCode != 400 {
			t.Fatalf("bad month: %d", r.StatusCode)
		}

		// E-mail: queued once it says so, bounded a client a day.
		for i := range 3 {
			r := s.owner.Do("POST", "/api/clients/statement/email", map[string]string{"key": s.appointment["hand"], "month": "2026-11"})
			if r.StatusCode != 200 || !strings.Contains(string(r.Body), `"email"`) {
				t.Fatalf("e-mail %d: %d %s", i, r.StatusCode, r.Body)
			}
		}
		if r := s.owner.Do("POST", "/api/clients/statement/email", map[string]string{"key": s.appointment["hand"], "month": "2026-11"}); r.StatusCode != 429 {
			t.Fatalf("fourth e-mail in a day: %d", r.StatusCode)
		}
		mails := e.Mails()
		n := 0
		for _, m := range mails {
			if strings.Contains(m.Raw, "To: <"+email+">") || strings.Contains(m.Raw, "To: "+email) {
				n++
				if !strings.Contains(m.Raw, "pix-qrcode@agendei") {
					t.Fatalf("statement e-mail without its QR code")
				}
			}
		}
		if n != 3 {
			t.Fatalf("%d statement e-mails delivered, want 3", n)
		}
	})
}

package waitlist_test

import (
	"context"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// withDeposit asks a R$ 30 deposit for the shop's service, paid within
// holdMinutes.
func (s *shop) withDeposit(t *testing.T, holdMinutes int) {
	t.Helper()
	if r := s.owner.Do("PUT", "/api/pix", map[string]string{"keyType": "cpf", "key": "529.982.247-25", "name": "Ana Lúcia Terapias", "city": "São Paulo"}); r.StatusCode != 200 {
		t.Fatalf("pix: %d %s", r.StatusCode, r.Body)
	}
	if r := s.owner.Do("PUT", "/api/services/"+s.svc, map[string]any{"name": "Sessão", "duration": 45, "priceCents": 15000,
		"deposit": map[string]any{"kind": "fixed", "value": 3000, "holdMinutes": holdMinutes, "keepOnLateCancel": true, "keepOnNoShow": true}}); r.StatusCode != 200 {
		t.Fatalf("policy: %d %s", r.StatusCode, r.Body)
	}
}

// A waitlist claim of a service with a deposit keeps the client on the
// list until the deposit is paid: when it expires unpaid they wait again
// (and are offered the next freed time, not the one they let go); when it
// is paid they leave the list.
func TestWaitlist_ADepositClaimKeepsThePlaceUntilPaid(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e, "ana@example.com", "ana")
		s.withDeposit(t, 10)
		s.fill(t, e, s.pro)
		s.join(t, e, "10.1.0.1", map[string]string{"clientName": "Sinal", "clientEmail": "sinal@example.com"})
		claim := func() string {
			t.Helper()
			e.RunJobs()
			tokens := mailedOffers(t, e, "sinal@example.com")
			if len(tokens) == 0 {
				t.Fatal("no offer")
			}
			var b struct {
				ID      string
				Deposit *struct{ State string }
			}
			r := e.Client().Do("POST", "/api/public/waitlist-offers/"+tokens[len(tokens)-1]+"/claim", nil)
			if r.StatusCode != 201 {
				t.Fatalf("claim: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &b)
			if b.Deposit == nil || b.Deposit.State != "pending" {
				t.Fatalf("the claim's booking: %+v", b)
			}
			return b.ID
		}
		s.ownerCancels(t, "10:00")
		claim()
		if l := s.list(t, monday); len(l) != 1 || l[0].ClientName != "Sinal" || l[0].LastOffer == nil || l[0].LastOffer.Status != "awaiting_deposit" {
			t.Fatalf("awaiting the deposit, the client stays listed: %+v", l)
		}
		// The deposit expires unpaid: 10:00 is released, the client waits again.
		s.advance(t, e, 11*time.Minute)
		e.RunJobs()
		var status string
		if err := e.DB.QueryRowContext(context.Background(), `SELECT status FROM appointments WHERE user_id = ? AND client_name = 'Sinal'`, s.ownerID).Scan(&status); err != nil || status != "cancelled" {
			t.Fatalf("the unpaid claim: %q %v", status, err)
		}
		l := s.list(t, monday)
		if len(l) != 1 {
			t.Fatalf("after the deposit expired the client waits again: %+v", l)
		}
		// The next freed time is offered to them; paid, they leave the list.
		s.ownerCancels(t, "09:00")
		id := claim()
		if r := s.owner.Do("POST", "/api/appointments/"+id+"/deposit/received", nil); r.StatusCode != 200 {
			t.Fatalf("Sinal recebido: %d %s", r.StatusCode, r.Body)
		}
		if l := s.list(t, monday); len(l) != 0 {
			t.Fatalf("paid, the client left the list: %+v", l)
		}
		if n := bookedBy(t, e, s.ownerID, "Sinal"); n != 1 {
			t.Fatalf("bookings: %d", n)
		}
	})
}

package agenda_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agendei/agendei/internal/agenda"
	"github.com/agendei/agendei/internal/platform/versions"
	"github.com/agendei/agendei/internal/server/servertest"
)

// gridDeposits is the grid's deposit marks: appointment id → state.
func (s *shop) gridDeposits(t *testing.T, query string) map[string]string {
	t.Helper()
	r := s.owner.Do("GET", "/api/agenda/grid?"+query, nil)
	if r.StatusCode != 200 {
		t.Fatalf("grid %s: %d %s", query, r.StatusCode, r.Body)
	}
	var g struct{ Appointments []agenda.GridAppointment }
	r.JSON(t, &g)
	out := map[string]string{}
	for _, a := range g.Appointments {
		if a.Deposit != nil {
			out[a.ID] = *a.Deposit
		}
	}
	return out
}

// The agenda marks each appointment's deposit (issue 29 point 5): a booking
// with a deposit is pending on the grid, and once the owner taps "Sinal
// recebido" the same grid — asked again, through the answer cache — says
// paid: the change bumped the owner's data version in its transaction.
// Appointments without a deposit, and other owners' deposits, have no mark.
func TestGrid_MarksEachAppointmentsDepositAndFollowsItsChanges(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		s := setup(t, e, "dona@example.com", "dona")
		other := setup(t, e, "outra@example.com", "outra")
		for _, sh := range []*shop{s, other} {
			if r := sh.owner.Do("PUT", "/api/pix", map[string]string{"keyType": "cpf", "key": "529.982.247-25", "name": "Dona Terapias", "city": "São Paulo"}); r.StatusCode != 200 {
				t.Fatalf("pix: %d %s", r.StatusCode, r.Body)
			}
			if r := sh.owner.Do("PUT", "/api/services/"+sh.svc, map[string]any{"name": "Sessão", "duration": 60, "priceCents": 10000,
				"deposit": map[string]any{"kind": "fixed", "value": 3000, "holdMinutes": 60, "keepOnLateCancel": true, "keepOnNoShow": true}}); r.StatusCode != 200 {
				t.Fatalf("policy: %d %s", r.StatusCode, r.Body)
			}
		}
		create := func(sh *shop, at string, charge bool) string {
			t.Helper()
			r := sh.create(map[string]any{"date": "2026-11-24", "time": at, "clientEmail": "rita@example.com", "chargeDeposit": charge})
			if r.StatusCode != 201 {
				t.Fatalf("create %s: %d %s", at, r.StatusCode, r.Body)
			}
			var a struct{ ID string }
			r.JSON(t, &a)
			return a.ID
		}
		withDeposit, without := create(s, "10:00", true), create(s, "14:00", false)
		othersDeposit := create(other, "10:00", true)
		day := "from=2026-11-24&to=2026-11-24"
		one := day + "&professional=" + s.pro
		for _, q := range []string{day, one, "from=2026-11-20&to=2026-11-26"} {
			if got := s.gridDeposits(t, q); fmt.Sprint(got) != fmt.Sprint(map[string]string{withDeposit: "pending"}) {
				t.Fatalf("grid %s before payment: %v (without %s, other's %s)", q, got, without, othersDeposit)
			}
		}
		if got := s.gridDeposits(t, "from=2026-11-25&to=2026-11-25"); len(got) != 0 {
			t.Fatalf("another day's grid: %v", got)
		}

		version := func() (v int64) {
			t.Helper()
			v, err := versions.Of(ctx, e.DB, s.ownerID)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		before := version()
		if r := s.owner.Do("POST", "/api/appointments/"+withDeposit+"/deposit/received", nil); r.StatusCode != 200 {
			t.Fatalf("sinal recebido: %d %s", r.StatusCode, r.Body)
		}
		if after := version(); after <= before {
			t.Fatalf("data version after 'Sinal recebido': %d, was %d", after, before)
		}
		for _, q := range []string{day, one} {
			if got := s.gridDeposits(t, q); fmt.Sprint(got) != fmt.Sprint(map[string]string{withDeposit: "paid"}) {
				t.Fatalf("grid %s after payment: %v", q, got)
			}
		}
		if got := other.gridDeposits(t, day); fmt.Sprint(got) != fmt.Sprint(map[string]string{othersDeposit: "pending"}) {
			t.Fatalf("the other owner's grid: %v", got)
		}

		// Another professional's grid has no mark; and the mark follows its
		// appointment to another date (the deposit keeps the date it is read
		// by, migration 00040, in the move's transaction).
		var bia struct{ ID string }
		s.owner.Do("POST", "/api/professionals", map[string]string{"name": "Bia", "specialization": "Psicóloga"}).JSON(t, &bia)
		if got := s.gridDeposits(t, day+"&professional="+bia.ID); len(got) != 0 {
			t.Fatalf("another professional's grid: %v", got)
		}
		if r := s.owner.Do("POST", "/api/appointments/"+withDeposit+"/reschedule", map[string]any{"date": "2026-11-25", "time": "11:00"}); r.StatusCode != 200 {
			t.Fatalf("remarcar: %d %s", r.StatusCode, r.Body)
		}
		if got := s.gridDeposits(t, day); len(got) != 0 {
			t.Fatalf("the day it left: %v", got)
		}
		for _, q := range []string{"from=2026-11-25&to=2026-11-25", "from=2026-11-25&to=2026-11-25&professional=" + s.pro, "from=2026-11-20&to=2026-11-26"} {
			if got := s.gridDeposits(t, q); fmt.Sprint(got) != fmt.Sprint(map[string]string{withDeposit: "paid"}) {
				t.Fatalf("grid %s after the move: %v", q, got)
			}
		}
	})
}

package booking_test

import (
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// Issue 43 §3: with "Ocultar preços na página pública" on, a public
// booking's answer and the client's private page carry no price (the pages
// say "Valor informado no atendimento"), while the owner's agenda keeps it;
// the answer names who was booked, so the page can print their council.
func TestBook_HiddenPricesLeaveTheAnswersWithoutPrice(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		owner := e.Client()
		owner.Login("ana@example.com", "segredo1")
		r := book(e, s, nextMonday, "09:00")
		var shown map[string]any
		if r.JSON(t, &shown); r.StatusCode != 201 || shown["priceCents"] != float64(15000) || shown["professionalId"] != s.professional {
			t.Fatalf("prices shown: %d %s", r.StatusCode, r.Body)
		}
		if r := owner.Do("PUT", "/api/profile/public-page", map[string]bool{"hidePrices": true}); r.StatusCode != 200 {
			t.Fatalf("hide: %d %s", r.StatusCode, r.Body)
		}
		r = book(e, s, nextMonday, "10:00")
		var hidden map[string]any
		if r.JSON(t, &hidden); r.StatusCode != 201 || strings.Contains(string(r.Body), "price") || strings.Contains(string(r.Body), "15000") {
			t.Fatalf("hidden prices in the booking's answer: %d %s", r.StatusCode, r.Body)
		}
		for _, token := range []any{shown["token"], hidden["token"]} {
			r := e.Client().Do("GET", "/api/public/bookings/"+token.(string), nil)
			if r.StatusCode != 200 || strings.Contains(string(r.Body), "price") {
				t.Fatalf("the private page with prices hidden: %d %s", r.StatusCode, r.Body)
			}
		}
		var list struct{ Appointments []struct{ PriceCents int64 } }
		owner.Do("GET", "/api/appointments?from="+nextMonday+"&to="+nextMonday, nil).JSON(t, &list)
		if a := list.Appointments; len(a) != 2 || a[0].PriceCents != 15000 || a[1].PriceCents != 15000 {
			t.Fatalf("the owner's agenda keeps the prices: %+v", a)
		}
	})
}

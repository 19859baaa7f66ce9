package server_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// An owner's own holiday is one per date (issue 38, §3): the same one added
// again — a second tap, or many at once — is a pt-BR 409 and the list keeps
// one entry; another date is still added.
func TestHolidays_TheSameDateIsAddedOnce(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Client()
		seedOwner(t, e, a)
		body := map[string]any{"name": "Aniversário da cidade", "month": 1, "day": 25}
		var wg sync.WaitGroup
		codes := make([]int, 5)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = a.Do("POST", "/api/holidays", body).StatusCode
			}()
		}
		wg.Wait()
		created := 0
		for _, c := range codes {
			switch c {
			case http.StatusCreated:
				created++
			case http.StatusConflict:
			default:
				t.Errorf("a holiday added at once: %d", c)
			}
		}
		r := a.Do("POST", "/api/holidays", body)
		if created != 1 || r.StatusCode != http.StatusConflict || !strings.Contains(r.Err(t).Error.Message, "Você já tem um feriado em 25/01") {
			t.Fatalf("%d created at once; again: %d %s", created, r.StatusCode, r.Body)
		}
		if r := a.Do("POST", "/api/holidays", map[string]any{"name": "Padroeira da cidade", "month": 1, "day": 26}); r.StatusCode != http.StatusCreated {
			t.Fatalf("another date: %d %s", r.StatusCode, r.Body)
		}
		var list struct{ Holidays []struct{ Name, Date string } }
		a.Do("GET", "/api/holidays?year=2027", nil).JSON(t, &list)
		n := 0
		for _, h := range list.Holidays {
			if h.Name == "Aniversário da cidade" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("the list has it %d times: %+v", n, list.Holidays)
		}
	})
}

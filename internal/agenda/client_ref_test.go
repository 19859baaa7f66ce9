package agenda_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// A client's page is addressed by an opaque reference (issue 39): any of
// their appointments' id, which /api/clients gives as ref. It opens their
// history and their data export, follows a change of phone, and the phone
// (the old links' key) still works; another owner's appointment finds no one.
func TestClientRef_OpensTheClientWithoutTheirPhoneInTheAddress(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		var list struct {
			Clients []struct{ Identifier, Ref, Name string }
		}
		s.owner.Do("GET", "/api/clients", nil).JSON(t, &list)
		refs := map[string]string{}
		for _, c := range list.Clients {
			if c.Ref == "" || strings.Contains(c.Ref, c.Identifier) {
				t.Fatalf("ref %q of %s", c.Ref, c.Name)
			}
			refs[c.Name] = c.Ref
		}
		history := func(key string) (int, string) {
			var h struct {
				Client struct{ Identifier, Name string }
			}
			r := s.owner.Do("GET", "/api/clients/history?key="+url.QueryEscape(key), nil)
			if r.StatusCode == 200 {
				r.JSON(t, &h)
			}
			return r.StatusCode, h.Client.Identifier
		}
		for _, key := range []string{refs["Maria"], s.appointment["m1"], s.appointment["m2"], "11911111111"} {
			if st, id := history(key); st != 200 || id != "11911111111" {
				t.Fatalf("history by %s: %d %s", key, st, id)
			}
		}
		if st, id := history(s.appointment["j0"]); st != 200 || id != "joao@x.com" {
			t.Fatalf("João by an appointment: %d %s", st, id)
		}
		var search struct {
			Clients []struct{ Identifier, Ref string }
		}
		s.owner.Do("GET", "/api/clients/search?q=maria", nil).JSON(t, &search)
		if len(search.Clients) != 1 || search.Clients[0].Ref == "" {
			t.Fatalf("search: %+v", search)
		}
		if st, id := history(search.Clients[0].Ref); st != 200 || id != "11911111111" {
			t.Fatalf("history by the search's ref: %d %s", st, id)
		}
		r := s.owner.Do("GET", "/api/clients/data?format=json&key="+refs["Maria"], nil)
		if r.StatusCode != 200 || !strings.Contains(string(r.Body), "11911111111") {
			t.Fatalf("data by ref: %d %s", r.StatusCode, r.Body)
		}
		// A new phone: the same reference opens the client under it.
		if r := s.owner.Do("PUT", "/api/clients/contact", map[string]string{"identifier": "11911111111", "name": "Maria", "phone": "(11) 95555-0000", "email": ""}); r.StatusCode != 200 {
			t.Fatalf("update: %d %s", r.StatusCode, r.Body)
		}
		if st, id := history(refs["Maria"]); st != 200 || id != "11955550000" {
			t.Fatalf("after the new phone: %d %s", st, id)
		}
		// Another owner's appointment and an unknown id find no one.
		other := setup(t, e, "outra@example.com", "outra")
		if r := other.owner.Do("GET", "/api/clients/history?key="+refs["Maria"], nil); r.StatusCode != 404 {
			t.Fatalf("another owner's ref: %d %s", r.StatusCode, r.Body)
		}
		if r := other.owner.Do("GET", "/api/clients/data?key="+refs["Maria"], nil); r.StatusCode != 404 {
			t.Fatalf("another owner's ref, data: %d %s", r.StatusCode, r.Body)
		}
		if st, _ := history("00000000-0000-4000-8000-000000000000"); st != 404 {
			t.Fatalf("unknown ref: %d", st)
		}
	})
}

package booking_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// A visitor's free times and bookable days are decided with the setup kept
// in memory only while the owner's data version says it is still current.
// Whatever this instance keeps — answers, setups — every answer equals the
// one an instance that has just read everything gives, after changes made
// through another instance, and a username that passes to another owner
// never shows the first one's data.
func TestPublicReads_FollowEveryChange(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		peer := e.Peer()
		n := 0
		// get reads through an instance with a query no answer is kept
		// for (the n parameter means nothing to the server).
		get := func(env *servertest.Env, username, what, pro, svc string) (int, string) {
			n++
			r := env.Client().Do("GET", fmt.Sprintf("/api/public/profiles/%s/%s&professional=%s&service=%s&n=%d", username, what, pro, svc, n), nil)
			if r.Header.Get("X-Agendei-Cache") == "hit" {
				t.Fatalf("%s: served from the cache", what)
			}
			return r.StatusCode, string(r.Body)
		}
		// same checks that this instance, which keeps the owner's setup
		// from earlier reads, answers as a fresh instance does.
		same := func(what string) string {
			t.Helper()
			fresh := e.Peer() // nothing kept yet
			wc, want := get(fresh, "ana", what, s.professional, s.service)
			gc, got := get(e, "ana", what, s.professional, s.service)
			if gc != 200 || wc != 200 || got != want {
				t.Fatalf("%s:\n got %d %s\nwant %d %s", what, gc, got, wc, want)
			}
			return got
		}
		same("times?date=" + nextMonday) // the setup is kept from here on
		if got := same("times?date=2026-12-07"); got != `{"times":["09:00","09:30","10:00","10:30","11:00"]}`+"\n" {
			t.Fatalf("a whole Monday: %s", got)
		}
		same("days?month=2026-12")

		// Bookings through the other instance, on dates never read here:
		// the kept setup is of an older version, and is not trusted.
		for _, at := range []string{"09:00", "10:00", "11:00"} {
			if r := book(peer, s, "2026-12-14", at); r.StatusCode != 201 {
				t.Fatalf("book %s: %d %s", at, r.StatusCode, r.Body)
			}
		}
		if r := book(peer, s, "2026-12-21", "10:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		if got := same("times?date=2026-12-21"); got != `{"times":["09:00","11:00"]}`+"\n" {
			t.Fatalf("around a booking made elsewhere: %s", got)
		}
		days := same("days?month=2026-12")
		var parsed struct{ Days []string }
		if err := json.Unmarshal([]byte(days), &parsed); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(parsed.Days, []string{"2026-12-07", "2026-12-21", "2026-12-28"}) {
			t.Fatalf("a full Monday is not bookable: %v", parsed.Days)
		}

		// The hours change elsewhere: the kept setup is stale.
		owner := e.Client()
		owner.Login("ana@example.com", "segredo1")
		openHours(t, owner, "14:00", "16:00")
		if got := same("times?date=2026-12-28"); got != `{"times":["14:00","14:30","15:00"]}`+"\n" {
			t.Fatalf("after the hours changed: %s", got)
		}

		// Ana gives up her username and Bia takes it: Ana's professional
		// and service under "ana" are nobody's now, never Ana's times.
		var profile map[string]any
		owner.Do("GET", "/api/profile", nil).JSON(t, &profile)
		profile["publicUsername"] = "ana-souza"
		if r := owner.Do("PUT", "/api/profile", profile); r.StatusCode != 200 {
			t.Fatalf("rename: %d %s", r.StatusCode, r.Body)
		}
		bia := peer.Client()
		bia.Signup("Bia", "bia@example.com", "segredo1", "gato")
		if r := bia.Do("POST", "/api/onboarding", map[string]any{"name": "Bia", "area": "Nutrição", "publicUsername": "ana",
			"services": []map[string]any{{"name": "Consulta", "duration": 60, "priceCents": 20000}}, "days": week([]int{1}, [2]string{"08:00", "18:00"})}); r.StatusCode != 200 {
			t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
		}
		for _, what := range []string{"times?date=2026-12-28", "days?month=2026-12"} {
			if code, body := get(e, "ana", what, s.professional, s.service); code != 400 {
				t.Fatalf("%s of the old owner under a username now Bia's: %d %s", what, code, body)
			}
			if code, body := get(e, "ana-souza", what, s.professional, s.service); code != 200 {
				t.Fatalf("%s under Ana's new username: %d %s", what, code, body)
			}
		}
	})
}

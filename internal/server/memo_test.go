package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// TestMemo_CachedAnswersFollowEveryChange: owner screens and public free
// times are served from the cache while nothing changes, and never after a
// change — made through this instance or another one on the same database —
// nor after the minute turns.
func TestMemo_CachedAnswersFollowEveryChange(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		peer := e.Peer()
		a := e.Client()
		d := seedOwner(t, e, a)
		pro, svc := d.ids["/api/professionals/"], d.ids["/api/services/"]
		timesPath := fmt.Sprintf("/api/public/profiles/anabela/times?date=2026-11-25&professional=%s&service=%s", pro, svc)
		get := func(c *servertest.Client, path string) (string, bool) {
			r := c.Do("GET", path, nil)
			if r.StatusCode != 200 {
				t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
			}
			return string(r.Body), r.Header.Get("X-Agendei-Cache") == "hit"
		}
		visitor := e.Client()
		paths := []string{"/api/reports", "/api/dashboard", "/api/clients", "/api/clients/export"}
		before := map[string]string{}
		for _, p := range paths {
			first, _ := get(a, p)
			again, hit := get(a, p)
			if !hit || again != first {
				t.Fatalf("%s: second read not served from the cache (hit=%v)", p, hit)
			}
			before[p] = first
		}
		times, _ := get(visitor, timesPath)
		if _, hit := get(visitor, timesPath); !hit || !strings.Contains(times, `"11:00"`) {
			t.Fatalf("times: hit=%v %s", hit, times)
		}

		// A booking through the other instance changes every answer here.
		b := peer.Client().Do("POST", "/api/public/profiles/anabela/bookings", map[string]string{
			"professionalId": pro, "serviceId": svc, "date": "2026-11-25", "time": "11:00", "clientName": "Nova Cliente", "clientPhone": "11955554444"})
		if b.StatusCode != 201 {
			t.Fatalf("booking through the peer: %d %s", b.StatusCode, b.Body)
		}
		for _, p := range paths {
			now, hit := get(a, p)
			if hit || now == before[p] && p != "/api/dashboard" {
				t.Errorf("%s after a booking elsewhere: hit=%v, unchanged=%v", p, hit, now == before[p])
			}
		}
		if now, hit := get(visitor, timesPath); hit || strings.Contains(now, `"11:00"`) {
			t.Errorf("times after the booking: hit=%v %s", hit, now)
		}

		// Changing the hours changes the free times.
		get(visitor, timesPath)
		var days []map[string]any
		for dd := range 7 {
			days = append(days, map[string]any{"dayOfWeek": dd, "enabled": true, "start": "08:00", "end": "10:00"})
		}
		if r := a.Do("PUT", "/api/availability", map[string]any{"days": days}); r.StatusCode != 200 {
			t.Fatalf("availability: %d %s", r.StatusCode, r.Body)
		}
		if now, hit := get(visitor, timesPath); hit || strings.Contains(now, `"14:00"`) {
			t.Errorf("times after the hours changed: hit=%v %s", hit, now)
		}

		// The minute turns: answers that depend on the clock are computed again.
		get(a, "/api/dashboard")
		e.Clock.Advance(time.Minute)
		if _, hit := get(a, "/api/dashboard"); hit {
			t.Error("dashboard served from the cache after the minute turned")
		}

		// Another owner never gets this owner's cached answer.
		other := e.Client()
		other.Signup("Bia", "bia@example.com", "segredo1", "cão")
		if body, hit := get(other, "/api/reports"); hit || strings.Contains(body, "Confidencial") {
			t.Errorf("another owner's reports: hit=%v", hit)
		}
	})
}

// TestMemo_CachedAnswersKeepTheirHeaders: an answer served from the cache
// carries exactly the headers of the first one — Cache-Control: no-store on
// the owner's screens, the CSV's type and file name — and its own request id.
func TestMemo_CachedAnswersKeepTheirHeaders(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Client()
		seedOwner(t, e, a)
		own := map[string]bool{"Date": true, "X-Request-Id": true, "X-Agendei-Cache": true}
		for _, p := range []string{"/api/dashboard", "/api/clients", "/api/reports", "/api/clients/export"} {
			first := a.Do("GET", p, nil)
			again := a.Do("GET", p, nil)
			if first.StatusCode != 200 || again.StatusCode != 200 || again.Header.Get("X-Agendei-Cache") != "hit" {
				t.Fatalf("%s: %d then %d (cache %q)", p, first.StatusCode, again.StatusCode, again.Header.Get("X-Agendei-Cache"))
			}
			if got := again.Header.Get("Cache-Control"); got != "no-store" {
				t.Errorf("%s from the cache: Cache-Control %q, want no-store", p, got)
			}
			for k := range merge(first.Header, again.Header) {
				if own[k] {
					continue
				}
				if f, g := strings.Join(first.Header.Values(k), ", "), strings.Join(again.Header.Values(k), ", "); f != g {
					t.Errorf("%s header %s: first %q, from the cache %q", p, k, f, g)
				}
			}
			if first.Header.Get("X-Request-Id") == again.Header.Get("X-Request-Id") {
				t.Errorf("%s: the cached answer repeats the first request's id", p)
			}
		}
		csv := a.Do("GET", "/api/clients/export", nil)
		if !strings.HasPrefix(csv.Header.Get("Content-Type"), "text/csv") || !strings.Contains(csv.Header.Get("Content-Disposition"), "attachment") {
			t.Errorf("cached CSV headers: %v", csv.Header)
		}
	})
}

func merge(hs ...http.Header) map[string]bool {
	out := map[string]bool{}
	for _, h := range hs {
		for k := range h {
			out[k] = true
		}
	}
	return out
}

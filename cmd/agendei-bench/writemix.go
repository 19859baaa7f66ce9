package main

// The write mix (issue 38 §1): every kind of an owner's writes at once, on
// two instances on PostgreSQL (one on SQLite), against a handful of owners —
// public bookings of distinct free times, owner creates, moves, status
// changes and blocks, with and without the settings edits (a service saved
// with its professionals, a professional renamed, another turned on and off,
// the time zone changed). Before one lock order the settings edits
// deadlocked with the bookings (500s, seconds each); the full mix is to keep
// at least 70 % of the mix without them, and no answer is a 5xx.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

const mixOwners = 20

func writeMixBench(engine string, srv *server, now time.Time, first int) {
	instances := []*server{srv}
	if engine == "postgres" {
		second := &server{dir: srv.dir, dsn: srv.dsn}
		second.launch("")
		instances = append(instances, second)
		defer func() {
			_ = second.cmd.Process.Kill()
			_, _ = second.cmd.Process.Wait()
		}()
	}
	// Owners open all day, with three professionals: the first takes the
	// public bookings, the second the owner's own appointments and moves,
	// the third is turned on and off.
	type mixOwner struct {
		owner
		pool []string // appointments for status changes
	}
	var all []mixOwner
	for i := range mixOwners {
		o := newOwner(srv.base, first+i, "00:00", "23:30", services(1, 30), 3)
		m := mixOwner{owner: o}
		for j := range 20 {
			var a struct{ ID string }
			call(srv.base, "POST", "/api/appointments", o.token, map[string]any{"professionalId": o.pros[1].ID, "serviceId": o.svcs[0].ID,
				"date": now.AddDate(0, 0, 2).Format("2006-01-02"), "time": fmt.Sprintf("%02d:%02d", j/2, 30*(j%2)),
				"clientName": "Cliente Fixo", "clientPhone": "11977776666", "outsideHours": true}, &a)
			m.pool = append(m.pool, a.ID)
		}
		all = append(all, m)
	}
	var counter [mixOwners]atomic.Uint64
	day := func(from, k uint64) string { return now.AddDate(0, 0, int(from+k)).Format("2006-01-02") }
	hhmm := func(k uint64) string { return fmt.Sprintf("%02d:%02d", (k%46)/2, 30*(k%2)) }
	kinds := map[string]func(o mixOwner, k uint64) (method, path string, body any){
		"booking": func(o mixOwner, k uint64) (string, string, any) {
			return "POST", "/api/public/profiles/" + o.username + "/bookings", map[string]string{"professionalId": o.pros[0].ID,
				"serviceId": o.svcs[0].ID, "date": day(3, k/46), "time": hhmm(k), "clientName": fmt.Sprintf("Cliente %d", k), "clientPhone": "11988887777"}
		},
		"create": func(o mixOwner, k uint64) (string, string, any) {
			return "POST", "/api/appointments", map[string]any{"professionalId": o.pros[1].ID, "serviceId": o.svcs[0].ID,
				"date": day(100, k/46), "time": hhmm(k), "clientName": "Paula Souza", "clientPhone": "11977776666", "outsideHours": true}
		},
		"move": func(o mixOwner, k uint64) (string, string, any) {
			return "POST", "/api/appointments/" + o.pool[k%uint64(len(o.pool))] + "/reschedule", map[string]any{
				"date": day(300, k/46), "time": hhmm(k), "outsideHours": true}
		},
		"status": func(o mixOwner, k uint64) (string, string, any) {
			return "PATCH", "/api/appointments/" + o.pool[(k+7)%uint64(len(o.pool))], map[string]string{"status": []string{"cancelled", "confirmed"}[k%2]}
		},
		"block": func(o mixOwner, k uint64) (string, string, any) {
			return "POST", "/api/blocks", map[string]any{"professionalId": o.pros[0].ID, "date": day(400, k%300), "start": "10:00", "end": "10:30", "reason": "Reunião"}
		},
		"service save": func(o mixOwner, k uint64) (string, string, any) {
			pros := []string{o.pros[0].ID, o.pros[1].ID}
			if k%2 == 0 {
				pros = append(pros, o.pros[2].ID)
			}
			return "PUT", "/api/services/" + o.svcs[0].ID, map[string]any{"name": fmt.Sprintf("Sessão %d", k%10), "duration": 30, "priceCents": 10000, "professionalIds": pros}
		},
		"rename": func(o mixOwner, k uint64) (string, string, any) {
			return "PUT", "/api/professionals/" + o.pros[1].ID, map[string]string{"name": fmt.Sprintf("Profissional %d", k%10), "specialization": "Psicóloga"}
		},
		"toggle": func(o mixOwner, k uint64) (string, string, any) {
			return "PATCH", "/api/professionals/" + o.pros[2].ID, map[string]bool{"active": k%2 == 1}
		},
		"zone": func(o mixOwner, k uint64) (string, string, any) {
			return "PUT", "/api/profile", map[string]any{"name": "Dona", "email": o.username + "@example.com", "area": "Psicologia",
				"publicUsername": o.username, "timeZone": []string{"America/Manaus", "America/Sao_Paulo"}[k%2]}
		},
	}
	writes := []string{"booking", "booking", "booking", "create", "move", "status", "block"}
	settings := []string{"service save", "rename", "toggle", "zone"}
	mix := func(names []string) vegeta.Targeter {
		var seq atomic.Uint64
		return func(t *vegeta.Target) error {
			n := seq.Add(1) - 1
			oi := n % mixOwners
			o := all[oi]
			name := names[(n/mixOwners)%uint64(len(names))]
			k := counter[oi].Add(1)
			method, path, body := kinds[name](o, k)
			raw, _ := json.Marshal(body)
			t.Method, t.URL, t.Body = method, instances[n%uint64(len(instances))].base+path, raw
			t.Header = http.Header{"X-Forwarded-For": {ip()}, "Content-Type": {"application/json"}, "X-Agendei-Client": {"bench"}}
			if name != "booking" {
				t.Header.Set("Authorization", "Bearer "+o.token)
			}
			return nil
		}
	}
	fmt.Printf("\nwrite mix (%s): %d owners, %d instance(s), %d connections; load %s\n", engine, mixOwners, len(instances), *connections, loadAverage())
	without := mixAttack("write mix without settings edits", mix(writes))
	full := mixAttack("write mix, all kinds", mix(append(slices.Clone(writes), settings...)))
	check(fmt.Sprintf("write mix: no answer 5xx (%d and %d)", without.fail5xx, full.fail5xx), without.fail5xx == 0 && full.fail5xx == 0)
	check(fmt.Sprintf("write mix: all kinds %.0f req/s, %.0f%% of the mix without settings edits (%.0f req/s; ≥ 70%%)",
		full.rps, 100*full.rps/without.rps, without.rps), full.rps >= 0.70*without.rps)
}

type mixRow struct {
	rps     float64
	fail5xx int
}

// mixAttack drives a write mix for the bench's duration at the public
// connections, printing req/s, latency and the answers by status (a 4xx is
// an answer — a time taken meanwhile, a zone changed under a booking — a
// 5xx a failure).
func mixAttack(name string, tr vegeta.Targeter) mixRow {
	conns := *connections
	a := vegeta.NewAttacker(vegeta.Workers(uint64(conns)), vegeta.MaxWorkers(uint64(conns)),
		vegeta.Connections(conns), vegeta.Timeout(30*time.Second), vegeta.KeepAlive(true), vegeta.MaxBody(0))
	var lat []time.Duration
	var first, last time.Time
	codes := map[int]int{}
	fail := 0
	for res := range a.Attack(tr, vegeta.Rate{Freq: 0}, *duration, name) {
		if first.IsZero() || res.Timestamp.Before(first) {
			first = res.Timestamp
		}
		if end := res.End(); end.After(last) {
			last = end
		}
		lat = append(lat, res.Latency)
		codes[int(res.Code)]++
		if res.Code >= 500 || res.Code == 0 {
			fail++
		}
	}
	slices.Sort(lat)
	q := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[int(p*float64(len(lat)-1))]) / 1e6
	}
	rps := float64(len(lat)) / last.Sub(first).Seconds()
	var cs []string
	for c, n := range codes {
		cs = append(cs, fmt.Sprintf("%d×%d", c, n))
	}
	sort.Strings(cs)
	fmt.Printf("%-36s %9.0f req/s %7.1fms p50 %7.1fms p99  %s\n", name, rps, q(0.50), q(0.99), strings.Join(cs, " "))
	return mixRow{rps: rps, fail5xx: fail}
}

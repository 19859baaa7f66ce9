package server_test

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// An owner's writes of every kind at once, on two instances sharing one
// database (issue 38): public bookings of distinct free times, the owner's
// own appointments and their moves, status changes, series cancels, a
// service saved with its professionals, a professional renamed and another
// turned on and off, the time zone changed back and forth, and blocks. On
// PostgreSQL their locks once crossed (a hold locks the professional, then
// its appointment's trigger bumps the owner's version row; a service save
// bumps the version row, then its service_professionals row takes KEY SHARE
// on the professional) and deadlocks answered 500. Every answer must be a
// success or a 4xx, and no two appointments holding time may overlap. A
// bounded number of operations per worker, not a time.
func TestOwnerWrites_AllKindsAtOnceOnTwoInstancesNeverAnswer5xx(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		peer := e.Peer()
		owner := e.Client()
		owner.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var days []map[string]any
		for d := range 7 {
			days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "07:00", "end": "21:00"})
		}
		if r := owner.Do("POST", "/api/onboarding", map[string]any{"name": "Ana", "area": "Psicologia", "publicUsername": "ana",
			"services": []map[string]any{{"name": "Sessão", "duration": 30, "priceCents": 15000}}, "days": days}); r.StatusCode != 200 {
			t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
		}
		var p1, p2, p3 struct{ ID string }
		owner.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &p1)
		owner.Do("POST", "/api/professionals", map[string]string{"name": "Bia", "specialization": "Psicóloga"}).JSON(t, &p2)
		owner.Do("POST", "/api/professionals", map[string]string{"name": "Caio", "specialization": "Psicólogo"}).JSON(t, &p3)
		var svcs []struct{ ID string }
		owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		svc := svcs[0].ID
		if r := owner.Do("PUT", "/api/services/"+svc, map[string]any{"name": "Sessão", "duration": 30, "priceCents": 15000,
			"professionalIds": []string{p1.ID, p2.ID, p3.ID}}); r.StatusCode != 200 {
			t.Fatalf("service: %d %s", r.StatusCode, r.Body)
		}
		// The owner on both instances (one access token serves either).
		owners := []*servertest.Client{owner, peer.Client()}
		owners[1].Token = owner.Token
		envs := []*servertest.Env{e, peer}

		const rounds = 12
		var failures atomic.Int64
		var mu sync.Mutex
		seen := map[string]int{}
		check := func(what string, r *servertest.Response) *servertest.Response {
			mu.Lock()
			seen[fmt.Sprintf("%s %d", what, r.StatusCode)]++
			if r.StatusCode/100 == 4 {
				seen[what+" "+string(r.Body)]++
			}
			mu.Unlock()
			if r.StatusCode >= 500 {
				failures.Add(1)
				t.Errorf("%s: %d %s", what, r.StatusCode, r.Body)
			}
			return r
		}
		create := func(c *servertest.Client, pro, date, at string, repeat map[string]any) string {
			body := map[string]any{"professionalId": pro, "serviceId": svc, "date": date, "time": at,
				"clientName": "Paula Souza", "clientPhone": "(11) 97777-6666", "outsideHours": true}
			if repeat != nil {
				body["repeat"] = repeat
			}
			var a struct{ ID string }
			if r := check("owner create", c.Do("POST", "/api/appointments", body)); r.StatusCode == 201 {
				r.JSON(t, &a)
			}
			return a.ID
		}
		var wg sync.WaitGroup
		worker := func(fn func(i int, c *servertest.Client, env *servertest.Env)) {
			n := 0
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range rounds {
					fn(i, owners[(n+i)%2], envs[(n+i)%2])
				}
			}()
		}
		// Six bookers on the public page, each on dates of its own.
		for w := range 6 {
			worker(func(i int, _ *servertest.Client, env *servertest.Env) {
				c := env.Client()
				c.ForwardedFor = fmt.Sprintf("10.38.%d.%d", w, i+1)
				pro := []string{p1.ID, p2.ID}[i%2]
				date := fmt.Sprintf("2026-12-%02d", 1+w)
				check("public booking", c.Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
					"professionalId": pro, "serviceId": svc, "date": date, "time": fmt.Sprintf("%02d:%02d", 7+i/2, 30*(i%2)),
					"clientName": "Maria Silva", "clientPhone": "(11) 98888-7777"}))
			})
		}
		worker(func(i int, c *servertest.Client, _ *servertest.Env) {
			pros := []string{p1.ID, p2.ID}
			if i%2 == 0 {
				pros = append(pros, p3.ID)
			}
			check("service save", c.Do("PUT", "/api/services/"+svc, map[string]any{"name": fmt.Sprintf("Sessão %d", i), "duration": 30,
				"priceCents": 15000, "professionalIds": pros}))
		})
		worker(func(i int, c *servertest.Client, _ *servertest.Env) {
			check("professional rename", c.Do("PUT", "/api/professionals/"+p1.ID, map[string]string{"name": fmt.Sprintf("Ana %d", i), "specialization": "Psicóloga"}))
		})
		worker(func(i int, c *servertest.Client, _ *servertest.Env) {
			check("professional toggle", c.Do("PATCH", "/api/professionals/"+p3.ID, map[string]bool{"active": i%2 == 1}))
		})
		worker(func(i int, c *servertest.Client, _ *servertest.Env) {
			zone := []string{"America/Manaus", "America/Sao_Paulo"}[i%2]
			check("zone change", c.Do("PUT", "/api/profile", map[string]any{"name": "Ana", "email": "ana@example.com", "area": "Psicologia",
				"publicUsername": "ana", "timeZone": zone}))
		})
		// The owner's own appointments: created, moved, cancelled and back.
		worker(func(i int, c *servertest.Client, _ *servertest.Env) {
			id := create(c, p2.ID, "2026-12-08", fmt.Sprintf("%02d:00", 7+i), nil)
			if id == "" {
				return
			}
			check("owner move", c.Do("POST", "/api/appointments/"+id+"/reschedule", map[string]any{"date": "2026-12-09",
				"time": fmt.Sprintf("%02d:00", 7+i), "professionalId": p1.ID, "outsideHours": true}))
			check("status change", c.Do("PATCH", "/api/appointments/"+id, map[string]string{"status": "cancelled"}))
			check("status change", c.Do("PATCH", "/api/appointments/"+id, map[string]string{"status": "confirmed"}))
		})
		// Series of the second professional, cancelled from their second session on.
		worker(func(i int, c *servertest.Client, _ *servertest.Env) {
			id := create(c, p2.ID, "2026-12-10", fmt.Sprintf("%02d:00", 7+i), map[string]any{"every": "week", "count": 3})
			if id == "" {
				return
			}
			check("series cancel", c.Do("PATCH", "/api/appointments/"+id, map[string]any{"status": "cancelled", "following": true}))
		})
		// Blocks over the bookers' dates (the bookings they cover are kept).
		worker(func(i int, c *servertest.Client, _ *servertest.Env) {
			pro := []string{p1.ID, p2.ID}[i%2]
			r := check("block", c.Do("POST", "/api/blocks", map[string]any{"professionalId": pro, "date": fmt.Sprintf("2026-12-%02d", 1+i%6),
				"start": "20:00", "end": "20:30", "reason": "Reunião"}))
			var b struct{ ID string }
			if r.StatusCode == 201 || r.StatusCode == 200 {
				r.JSON(t, &b)
				check("block delete", c.Do("DELETE", "/api/blocks/"+b.ID, nil))
			}
		})
		wg.Wait()
		t.Logf("answers: %v", seen)
		if n := failures.Load(); n > 0 {
			t.Fatalf("%d answers 5xx", n)
		}
		type held struct {
			pro, date  string
			from, till int
		}
		var all []held
		rows, err := e.DB.QueryContext(context.Background(), `SELECT professional_id, appointment_date, appointment_time, duration
			FROM appointments WHERE status IN ('confirmed', 'completed', 'no_show') AND professional_id IS NOT NULL`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var h held
			var at string
			var d int
			if err := rows.Scan(&h.pro, &h.date, &at, &d); err != nil {
				t.Fatal(err)
			}
			var hh, mm int
			fmt.Sscanf(at, "%d:%d", &hh, &mm)
			h.from = hh*60 + mm
			h.till = h.from + d
			for _, o := range all {
				if o.pro == h.pro && o.date == h.date && o.from < h.till && h.from < o.till {
					t.Errorf("overlap: %+v and %+v", o, h)
				}
			}
			all = append(all, h)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if len(all) < 6 {
			t.Fatalf("only %d appointments hold time", len(all))
		}
	})
}

// An account deleted while its owner's writes (and a client's bookings)
// are in flight (issue 38 §2): the deletion succeeds, every other answer is
// a success or a 4xx (401 once the account is gone), never a 5xx, and the
// account leaves no row behind in any table.
func TestDeleteAccount_WhileInUseNeverAnswers5xxAndLeavesNothing(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		peer := e.Peer()
		for round := range 4 {
			owner := e.Client()
			owner.ForwardedFor = fmt.Sprintf("10.39.%d.1", round)
			email := fmt.Sprintf("del%d@example.com", round)
			username := fmt.Sprintf("del%d", round)
			owner.Signup("Ana", email, "segredo1", "gato")
			var days []map[string]any
			for d := range 7 {
				days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "07:00", "end": "21:00"})
			}
			if r := owner.Do("POST", "/api/onboarding", map[string]any{"name": "Ana", "area": "Psicologia", "publicUsername": username,
				"services": []map[string]any{{"name": "Sessão", "duration": 30, "priceCents": 15000}}, "days": days}); r.StatusCode != 200 {
				t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
			}
			var p1, p2 struct{ ID string }
			owner.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &p1)
			owner.Do("POST", "/api/professionals", map[string]string{"name": "Bia", "specialization": "Psicóloga"}).JSON(t, &p2)
			var svcs []struct{ ID string }
			owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
			svc := svcs[0].ID
			owner.Do("PUT", "/api/services/"+svc, map[string]any{"name": "Sessão", "duration": 30, "priceCents": 15000, "professionalIds": []string{p1.ID, p2.ID}})
			owners := []*servertest.Client{owner, peer.Client()}
			owners[1].Token = owner.Token

			var mu sync.Mutex
			seen := map[string]int{}
			check := func(what string, r *servertest.Response) *servertest.Response {
				mu.Lock()
				seen[fmt.Sprintf("%s %d", what, r.StatusCode)]++
				mu.Unlock()
				if r.StatusCode >= 500 {
					t.Errorf("round %d, %s: %d %s", round, what, r.StatusCode, r.Body)
				}
				return r
			}
			writes := []func(i int, c *servertest.Client, env *servertest.Env) *servertest.Response{
				func(i int, c *servertest.Client, _ *servertest.Env) *servertest.Response {
					return check("service save", c.Do("PUT", "/api/services/"+svc, map[string]any{"name": fmt.Sprintf("Sessão %d", i), "duration": 30,
						"priceCents": 15000, "professionalIds": []string{p1.ID, p2.ID}}))
				},
				func(i int, c *servertest.Client, _ *servertest.Env) *servertest.Response {
					return check("professional rename", c.Do("PUT", "/api/professionals/"+p1.ID, map[string]string{"name": fmt.Sprintf("Ana %d", i), "specialization": "Psicóloga"}))
				},
				func(i int, c *servertest.Client, _ *servertest.Env) *servertest.Response {
					return check("owner create", c.Do("POST", "/api/appointments", map[string]any{"professionalId": p2.ID, "serviceId": svc,
						"date": "2026-12-08", "time": fmt.Sprintf("%02d:%02d", 7+i/2, 30*(i%2)), "clientName": "Paula Souza", "clientPhone": "(11) 97777-6666"}))
				},
				func(i int, c *servertest.Client, _ *servertest.Env) *servertest.Response {
					return check("block", c.Do("POST", "/api/blocks", map[string]any{"professionalId": p1.ID, "date": fmt.Sprintf("2026-12-%02d", 10+i),
						"start": "20:00", "end": "20:30", "reason": "Reunião"}))
				},
				func(i int, _ *servertest.Client, env *servertest.Env) *servertest.Response {
					c := env.Client()
					c.ForwardedFor = fmt.Sprintf("10.40.%d.%d", round, i+1)
					return check("public booking", c.Do("POST", "/api/public/profiles/"+username+"/bookings", map[string]string{
						"professionalId": p1.ID, "serviceId": svc, "date": "2026-12-09", "time": fmt.Sprintf("%02d:%02d", 7+i/2, 30*(i%2)),
						"clientName": "Maria Silva", "clientPhone": "(11) 98888-7777"}))
				},
			}
			var started, wg sync.WaitGroup
			for w, write := range writes {
				started.Add(1)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 24 {
						if i == 2 {
							started.Done()
						}
						r := write(i, owners[(w+i)%2], []*servertest.Env{e, peer}[(w+i)%2])
						if r.StatusCode == 401 || (w == 4 && r.StatusCode == 404) {
							if i < 2 {
								started.Done()
							}
							return
						}
					}
				}()
			}
			started.Wait()
			del := owners[round%2].Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"})
			wg.Wait()
			if del.StatusCode != 200 {
				t.Fatalf("round %d: the deletion answered %d %s", round, del.StatusCode, del.Body)
			}
			t.Logf("round %d: %v", round, seen)
			uid := userOf(t, owner.Token)
			for _, left := range rowsOf(t, e, uid, p1.ID, p2.ID) {
				t.Errorf("round %d: the deleted account left %s", round, left)
			}
		}
	})
}

// userOf is the user id an access token names (its JWT subject).
func userOf(t *testing.T, token string) string {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", token)
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims struct{ Sub string }
	if err := json.Unmarshal(raw, &claims); err != nil || claims.Sub == "" {
		t.Fatalf("claims %s: %v", raw, err)
	}
	return claims.Sub
}

// rowsOf lists, table by table, the rows that name the account (a user_id
// column, or the profile's and user's own id) or one of its professionals
// (a professional_id column), found in the schema.
func rowsOf(t *testing.T, e *servertest.Env, uid string, pros ...string) []string {
	t.Helper()
	ctx := context.Background()
	q := `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()
		AND column_name IN ('user_id', 'professional_id', 'id') ORDER BY table_name, column_name`
	if e.DB.Dialect == db.SQLite {
		q = `SELECT m.name, c.name FROM sqlite_schema m JOIN pragma_table_info(m.name) c
			WHERE m.type = 'table' AND c.name IN ('user_id', 'professional_id', 'id') ORDER BY m.name, c.name`
	}
	type col struct{ table, column string }
	var cols []col
	err := db.Each(ctx, e.DB, q, nil, func(r *sql.Rows) error {
		var c col
		if err := r.Scan(&c.table, &c.column); err != nil {
			return err
		}
		cols = append(cols, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	needles := append([]any{uid}, anys(pros)...)
	var out []string
	for _, c := range cols {
		var n int
		query := fmt.Sprintf(`SELECT COUNT(*) FROM %s WHERE CAST(%s AS TEXT) IN (?%s)`, c.table, c.column, strings.Repeat(", ?", len(needles)-1))
		if err := e.DB.QueryRowContext(ctx, query, needles...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%d rows in %s (by %s)", n, c.table, c.column))
		}
	}
	return out
}

func anys(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

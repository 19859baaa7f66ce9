package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// shop is an owner open every day 06:00–22:00 with a one-hour service.
type shop struct{ token, professional, service string }

func openShop(t *testing.T, base string) shop {
	t.Helper()
	code, s := call(t, "POST", base+"/api/auth/signup", "", "", map[string]string{"name": "Ana", "email": "ana@example.com", "password": "segredo1", "recoveryKeyword": "gato"})
	if code != 201 {
		t.Fatalf("signup: %d %v", code, s)
	}
	sh := shop{token: s["accessToken"].(string)}
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "06:00", "end": "22:00"})
	}
	if code, out := call(t, "POST", base+"/api/onboarding", sh.token, "", map[string]any{"name": "Ana", "area": "Psi", "publicUsername": "ana",
		"services": []map[string]any{{"name": "Sessão", "duration": 60, "priceCents": 10000}}, "days": days}); code != 200 {
		t.Fatalf("onboarding: %d %v", code, out)
	}
	// Open every day the load books (the next 30): a national holiday among
	// them (Christmas, from 25 November on) would answer day_closed.
	year := time.Now().Year()
	for _, y := range []int{year, year + 1} {
		var list struct {
			Holidays []struct {
				Key      string
				National bool
			}
		}
		getJSON(t, fmt.Sprintf("%s/api/holidays?year=%d", base, y), sh.token, &list)
		for _, h := range list.Holidays {
			if h.National {
				if code, out := call(t, "PUT", base+"/api/holidays/"+h.Key, sh.token, "", map[string]bool{"open": true}); code != 204 {
					t.Fatalf("open holiday %s: %d %v", h.Key, code, out)
				}
			}
		}
	}
	_, pro := call(t, "POST", base+"/api/professionals", sh.token, "", map[string]string{"name": "Ana", "specialization": "Psicóloga"})
	sh.professional = pro["id"].(string)
	var svcs []map[string]any
	getJSON(t, base+"/api/services", sh.token, &svcs)
	sh.service = svcs[0]["id"].(string)
	return sh
}

func getJSON(t *testing.T, url, token string, v any) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	_ = json.NewDecoder(res.Body).Decode(v)
	return res.StatusCode
}

// slotKey is one bookable hour: "2026-11-24 09:00".
type slotKey string

// bookingLoad books the shop's hours from several workers: half of them take
// fresh hours, half race for hours already taken. It records every 201 and
// every other outcome, until stop is closed or the hours run out.
type bookingLoad struct {
	mu       sync.Mutex
	answered []slotKey // 201s
	outcomes map[string]int
	seen     atomic.Int64
}

func (l *bookingLoad) run(t *testing.T, targets func(i int) string, sh shop, workers int, stop <-chan struct{}) *sync.WaitGroup {
	l.outcomes = map[string]int{}
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	var hours []slotKey
	for d := 1; d <= 30; d++ {
		date := time.Now().In(loc).AddDate(0, 0, d).Format("2006-01-02")
		for h := 6; h < 22; h++ {
			hours = append(hours, slotKey(fmt.Sprintf("%s %02d:00", date, h)))
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var k slotKey
				if w%2 == 0 {
					i := next.Add(1) - 1
					if int(i) >= len(hours) {
						return
					}
					k = hours[i]
				} else {
					k = hours[(n*7+w)%max(1, min(len(hours), int(next.Load())))] // an hour likely taken
				}
				date, at, _ := strings.Cut(string(k), " ")
				body, _ := json.Marshal(map[string]string{"professionalId": sh.professional, "serviceId": sh.service, "date": date, "time": at,
					"clientName": "Cliente", "clientPhone": "11988887777"})
				seq := l.seen.Add(1)
				req, _ := http.NewRequest("POST", targets(int(seq))+"/api/public/profiles/ana/bookings", strings.NewReader(string(body)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Agendei-Client", "load")
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", seq>>16&255, seq>>8&255, seq&255))
				res, err := client.Do(req)
				outcome := "transport error"
				if err == nil {
					var e struct {
						Error struct{ Code, Message string }
					}
					_ = json.NewDecoder(res.Body).Decode(&e)
					res.Body.Close()
					outcome = fmt.Sprintf("%d %s", res.StatusCode, e.Error.Code)
					if res.StatusCode >= 500 && e.Error.Message == "" {
						outcome += " (no message)"
					}
				}
				l.mu.Lock()
				l.outcomes[outcome]++
				if err == nil && res.StatusCode == 201 {
					l.answered = append(l.answered, k)
				}
				l.mu.Unlock()
				if w%2 == 1 {
					time.Sleep(time.Millisecond) // let the fresh-hour workers lead
				}
			}
		}()
	}
	return &wg
}

func (l *bookingLoad) count(outcome string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.outcomes[outcome]
}

// verifyBooked reads the agenda and finds every answered booking there and
// no two confirmed appointments of the shop's professional overlapping.
func verifyBooked(t *testing.T, base string, sh shop, answered []slotKey) {
	t.Helper()
	var out struct {
		Appointments []struct {
			Date, Time, Status, ProfessionalID string
			Duration                           int
		}
		Truncated bool
	}
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	from, to := time.Now().In(loc).Format("2006-01-02"), time.Now().In(loc).AddDate(0, 0, 31).Format("2006-01-02")
	if code := getJSON(t, base+"/api/appointments?from="+from+"&to="+to, sh.token, &out); code != 200 || out.Truncated {
		t.Fatalf("agenda: %d truncated=%v", code, out.Truncated)
	}
	present := map[slotKey]int{}
	type span struct{ start, end time.Time }
	var spans []span
	for _, a := range out.Appointments {
		if a.Status != "confirmed" || a.ProfessionalID != sh.professional {
			continue
		}
		present[slotKey(a.Date+" "+a.Time[:5])]++
		start, err := time.Parse("2006-01-02 15:04", a.Date+" "+a.Time[:5])
		if err != nil {
			t.Fatal(err)
		}
		spans = append(spans, span{start, start.Add(time.Duration(a.Duration) * time.Minute)})
	}
	for _, k := range answered {
		if present[k] != 1 {
			t.Errorf("booking %s was answered 201 but is present %d times", k, present[k])
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start.Before(spans[j].start) })
	for i := 1; i < len(spans); i++ {
		if spans[i].start.Before(spans[i-1].end) {
			t.Errorf("overlap: %v and %v", spans[i-1], spans[i])
		}
	}
	t.Logf("%d bookings answered 201, %d confirmed in the agenda, no overlap", len(answered), len(spans))
}

// TestCrash_SIGKILLMidLoadLosesNoAnsweredBooking kills the SQLite server with
// SIGKILL while bookings pour in, restarts it on the same data dir, and finds
// every booking that had been answered 201 and no overlap.
func TestCrash_SIGKILLMidLoadLosesNoAnsweredBooking(t *testing.T) {
	dataDir := t.TempDir()
	a := startServe(t, "", dataDir)
	sh := openShop(t, a.base)
	load := &bookingLoad{}
	stop := make(chan struct{})
	wg := load.run(t, func(int) string { return a.base }, sh, 8, stop)
	deadline := time.Now().Add(20 * time.Second)
	for load.count("201 ") < 60 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = a.cmd.Process.Wait()
	close(stop)
	wg.Wait()
	if load.count("201 ") < 60 {
		t.Fatalf("the load never got going: %v\n%s", load.outcomes, a.logs)
	}
	t.Logf("outcomes until the kill: %v", load.outcomes)

	b := startServe(t, "", dataDir)
	verifyBooked(t, b.base, sh, load.answered)
}

// pgCluster is a PostgreSQL of this test's own, so stopping it does not
// disturb other tests.
type pgCluster struct {
	t        *testing.T
	bin, dir string
	port     int
	asOwner  []string
}

func newPGCluster(t *testing.T) *pgCluster {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	if os.Getenv("AGENDEI_TEST_DATABASE_URL") == "" || len(bins) == 0 {
		t.Skip("PostgreSQL tests run under scripts/with-postgres.sh")
	}
	sort.Strings(bins)
	c := &pgCluster{t: t, bin: bins[len(bins)-1], port: freePort(t)}
	dir, err := os.MkdirTemp("", "agendei-pg-crash-")
	if err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	if os.Getuid() == 0 { // PostgreSQL refuses to run as root
		c.asOwner = []string{"runuser", "-u", "postgres", "--"}
		if out, err := exec.Command("chown", "postgres", dir).CombinedOutput(); err != nil {
			t.Fatalf("chown: %v %s", err, out)
		}
	}
	t.Cleanup(func() {
		_ = c.ctl("stop", "-m", "immediate")
		os.RemoveAll(dir)
	})
	if out, err := c.run(filepath.Join(c.bin, "initdb"), "-D", dir+"/data", "-U", "postgres", "-A", "trust", "--no-sync"); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	if err := c.ctl("start"); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *pgCluster) run(name string, args ...string) ([]byte, error) {
	cmd := append(append([]string{}, c.asOwner...), append([]string{name}, args...)...)
	return exec.Command(cmd[0], cmd[1:]...).CombinedOutput()
}

func (c *pgCluster) ctl(action string, extra ...string) error {
	args := []string{"-D", c.dir + "/data", "-w", "-t", "30"}
	if action == "start" {
		args = append(args, "-l", c.dir+"/log", "-o", fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off -c max_connections=100", c.port, c.dir))
	}
	args = append(append(args, extra...), action)
	if out, err := c.run(filepath.Join(c.bin, "pg_ctl"), args...); err != nil {
		return fmt.Errorf("pg_ctl %s: %v\n%s", action, err, out)
	}
	return nil
}

func (c *pgCluster) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// TestCrash_PostgresRestartUnderLoad stops PostgreSQL while bookings pour in:
// meanwhile every request is answered 503 with a message (never a 500 or a
// hang), /readyz says so, and once PostgreSQL is back bookings succeed again
// without restarting Agendei; every 201 is in the agenda, with no overlap.
func TestCrash_PostgresRestartUnderLoad(t *testing.T) {
	pg := newPGCluster(t)
	a := startServe(t, pg.url(), t.TempDir())
	sh := openShop(t, a.base)
	load := &bookingLoad{}
	stop := make(chan struct{})
	wg := load.run(t, func(int) string { return a.base }, sh, 6, stop)
	for load.count("201 ") < 30 {
		time.Sleep(5 * time.Millisecond)
	}
	if err := pg.ctl("stop", "-m", "fast"); err != nil {
		t.Fatal(err)
	}
	down := time.Now()
	for load.count("503 unavailable") < 20 && time.Since(down) < 20*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if res, err := http.Get(a.base + "/readyz"); err != nil || res.StatusCode != 503 {
		t.Errorf("/readyz while PostgreSQL is down: %v %v", err, res)
	}
	before := load.count("201 ")
	if err := pg.ctl("start"); err != nil {
		t.Fatal(err)
	}
	up := time.Now()
	for load.count("201 ") < before+20 && time.Since(up) < 30*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	t.Logf("outcomes: %v", load.outcomes)
	if load.count("201 ") < before+20 {
		t.Fatalf("bookings did not resume after PostgreSQL came back:\n%s", a.logs)
	}
	if load.count("503 unavailable") == 0 {
		t.Fatal("no request saw the outage")
	}
	for outcome := range load.outcomes {
		if outcome != "201 " && outcome != "409 slot_unavailable" && outcome != "503 unavailable" {
			t.Errorf("unexpected outcome %q ×%d", outcome, load.outcomes[outcome])
		}
	}
	verifyBooked(t, a.base, sh, load.answered)
}

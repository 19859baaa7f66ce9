// Command agendei-bench is `make bench`: it starts `agendei serve` on a
// throwaway data dir (SQLite, then PostgreSQL when AGENDEI_TEST_DATABASE_URL
// names a cluster), seeds a realistic tenant base, drives each endpoint over
// loopback with vegeta at a fixed number of connections, and prints req/s
// and latency beside a trivial JSON handler of the same server (/healthz)
// measured in the same run, with the targets checked. Then it
// restarts the server on the same data with each mechanism of the public
// read path off in turn (AGENDEI_BENCH_DISABLE, a benchmark switch) and
// prints what each one pays (docs/decisions/, and the tables in
// docs/measurements.md); -only "public read" runs just that.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/agendei/agendei/internal/benchseed"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/tz"
)

var (
	binary      = flag.String("bin", "bin/agendei", "the agendei binary to benchmark")
	owners      = flag.Int("owners", 1000, "owners in the tenant base")
	appts       = flag.Int("appointments", 100_000, "appointments of the busiest owner")
	duration    = flag.Duration("duration", 5*time.Second, "how long each endpoint is driven at most")
	maxRequests = flag.Int("max-requests", 200_000, "how many requests each endpoint gets at most")
	connections = flag.Int("connections", 32, "concurrent connections (in-flight requests) on the public endpoints")
	ownerConns  = flag.Int("owner-connections", 4, "concurrent connections on the owner's screens (a clinic's few open tabs)")
	engines     = flag.String("engines", "sqlite,postgres", "engines to run, comma-separated")
	only        = flag.String("only", "", "run only the endpoints whose name contains this text, or one of these texts separated by commas (the baselines always run)")
	gridRate    = flag.Int("grid-rate", 200, "day grids a second of the fixed-rate grid row")
	streams     = flag.Int("streams", 10_000, "owners' open event streams the live agenda holds on one instance (ten per owner)")
)

var saoPaulo = tz.Load(tz.Default)

// fileLimit is the open-file limit of the bench and the servers it starts
// (raiseFileLimit): the live agenda holds a socket per stream on each side.
var fileLimit uint64

func main() {
	flag.Parse()
	log.SetFlags(0)
	fileLimit = raiseFileLimit()
	if !onlyCalendars() {
		fmt.Printf("agendei-bench: %d owners, busiest with %d appointments; each endpoint for %s at %d connections\n",
			*owners, *appts, *duration, *connections)
	}
	for _, engine := range strings.Split(*engines, ",") {
		dsn := ""
		if engine == "postgres" {
			admin := os.Getenv("AGENDEI_TEST_DATABASE_URL")
			if admin == "" {
				fmt.Println("\npostgres: skipped (run under scripts/with-postgres.sh, as `make bench` does)")
				continue
			}
			dsn = freshDatabase(admin)
		}
		if !onlyCalendars() {
			run(engine, dsn)
		}
		if asked(secImports) || asked(secAddresses) || asked(secWriteBack) {
			calendarsBench(engine, func() string {
				if engine == "postgres" {
					return freshDatabase(os.Getenv("AGENDEI_TEST_DATABASE_URL"))
				}
				return ""
			})
		}
	}
}

// freshDatabase creates an empty database on the cluster and returns its URL.
func freshDatabase(admin string) string {
	conn, err := sql.Open("pgx", admin)
	must(err)
	defer conn.Close()
	name := fmt.Sprintf("bench_%d", time.Now().UnixNano())
	_, err = conn.Exec("CREATE DATABASE " + name)
	must(err)
	u, err := url.Parse(admin)
	must(err)
	u.Path = "/" + name
	return u.String()
}

type server struct {
	cmd  *exec.Cmd
	base string
	dir  string
	dsn  string
	env  []string // more environment for the process (the reminders row's fakes)
}

func start(dsn string) *server {
	dir, err := os.MkdirTemp("", "agendei-bench-")
	must(err)
	s := &server{dir: dir, dsn: dsn}
	s.launch("")
	return s
}

// launch starts agendei serve on the server's data dir and database, with
// the public read path's mechanisms named in disable turned off (the
// benchmark switch AGENDEI_BENCH_DISABLE; "" leaves everything on, as in
// production), and waits until it is ready.
func (s *server) launch(disable string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	args := []string{"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--data-dir", s.dir, "--base-url", base, "--trust-proxy", "--log-level", "error"}
	if s.dsn != "" {
		args = append(args, "--database-url", s.dsn)
	}
	cmd := exec.Command(*binary, args...)
	cmd.Env = append(append(os.Environ(), "AGENDEI_BENCH_DISABLE="+disable), s.env...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	must(cmd.Start())
	s.cmd, s.base = cmd, base
	for i := 0; ; i++ {
		if r, err := http.Get(base + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return
			}
		}
		if i > 300 {
			log.Fatal("agendei did not become ready")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// restart stops the server process and starts it again on the same data
// with disable (see launch).
func (s *server) restart(disable string) {
	_ = s.cmd.Process.Kill()
	_, _ = s.cmd.Process.Wait()
	s.launch(disable)
}

func (s *server) stop() {
	_ = s.cmd.Process.Kill()
	_, _ = s.cmd.Process.Wait()
	os.RemoveAll(s.dir)
}

// memory reads the server's resident set from /proc: the high-water mark
// (VmHWM) and the current split between heap (RssAnon) and mapped database
// file pages (RssFile), in MB.
func (s *server) memory() map[string]int {
	out := map[string]int{}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && (k == "VmHWM" || k == "VmRSS" || k == "RssAnon" || k == "RssFile") {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			out[k] = kb / 1024
		}
	}
	return out
}

// goMemory is the memory the server's Go runtime holds from the system and
// has not released (go_memstats_sys_bytes less heap_released), in MB, from
// its /metrics: the rest of the resident set is the database engine's own
// (SQLite's page caches and sorters) and the binary's pages.
func (s *server) goMemory() int {
	res, err := http.Get(s.base + "/metrics")
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var sys, released float64
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "go_memstats_sys_bytes "); ok {
			sys, _ = strconv.ParseFloat(v, 64)
		}
		if v, ok := strings.CutPrefix(line, "go_memstats_heap_released_bytes "); ok {
			released, _ = strconv.ParseFloat(v, 64)
		}
	}
	return int((sys - released) / (1 << 20))
}

var visitor atomic.Uint64

// ip is a fresh visitor address, so per-visitor limits do not cap the load
// (the server trusts X-Forwarded-For in the bench, as behind a proxy).
func ip() string {
	n := visitor.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
}

// signIn is a fresh access token of a bench owner.
func signIn(base string, o owner) string {
	var s struct{ AccessToken string }
	if code := call(base, "POST", "/api/auth/login", "", map[string]string{"email": o.username + "@example.com", "password": "segredo-bench-1"}, &s); code != 200 {
		log.Fatalf("login %s: %d", o.username, code)
	}
	return s.AccessToken
}

func call(base, method, path, token string, body any, out any) int {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Agendei-Client", "bench")
	req.Header.Set("X-Forwarded-For", ip())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	must(err)
	defer res.Body.Close()
	if out != nil {
		_ = json.NewDecoder(res.Body).Decode(out)
	} else {
		_, _ = io.Copy(io.Discard, res.Body)
	}
	return res.StatusCode
}

type owner struct {
	token, id, username string
	pros, svcs          []benchseed.Ref
}

// newOwner signs up and onboards an owner open every day from open to close,
// with the given services, and adds professionals.
func newOwner(base string, i int, open, close string, services []map[string]any, pros int) owner {
	var s struct {
		AccessToken string
		User        struct{ ID string }
	}
	username := fmt.Sprintf("dona%04d", i)
	if code := call(base, "POST", "/api/auth/signup", "", map[string]string{"name": fmt.Sprintf("Dona %d", i),
		"email": username + "@example.com", "password": "segredo-bench-1", "recoveryKeyword": "gato"}, &s); code != 201 {
		log.Fatalf("signup %d: %d", i, code)
	}
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": open, "end": close})
	}
	if code := call(base, "POST", "/api/onboarding", s.AccessToken, map[string]any{"name": fmt.Sprintf("Dona %d", i), "area": "Psicologia",
		"publicUsername": username, "services": services, "days": days}, nil); code != 200 {
		log.Fatalf("onboarding %d: %d", i, code)
	}
	o := owner{token: s.AccessToken, id: s.User.ID, username: username}
	for p := range pros {
		var pro struct{ ID, Name string }
		call(base, "POST", "/api/professionals", o.token, map[string]string{"name": fmt.Sprintf("Profissional %d", p), "specialization": "Psicóloga"}, &pro)
		o.pros = append(o.pros, benchseed.Ref{ID: pro.ID, Name: pro.Name})
	}
	var svcs []struct{ ID, Name string }
	call(base, "GET", "/api/services", o.token, nil, &svcs)
	for _, s := range svcs {
		o.svcs = append(o.svcs, benchseed.Ref{ID: s.ID, Name: s.Name})
	}
	return o
}

func services(n, minutes int) []map[string]any {
	var out []map[string]any
	for i := range n {
		out = append(out, map[string]any{"name": fmt.Sprintf("Serviço %d", i+1), "duration": minutes, "priceCents": 10000 + 1000*i})
	}
	return out
}

type row struct {
	name                string
	rps, p50, p99, fail float64
	ok                  bool
	rss, goSys          int // the server's resident set after the row, and what the Go runtime holds of it, MB
}

func run(engine, dsn string) {
	fmt.Printf("\n== %s ==\n", engine)
	srv := start(dsn)
	defer srv.stop()
	t0 := time.Now()

	// The tenant base: many small owners, the busiest one, and one whose
	// free hours take the booking load.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var small []owner
	work := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				o := newOwner(srv.base, i, "08:00", "18:00", services(2, 50), 1)
				mu.Lock()
				small = append(small, o)
				mu.Unlock()
			}
		}()
	}
	for i := 2; i < *owners; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	// The busiest owner has the ten professionals of the agenda grid's rows:
	// a day of theirs is ~137 appointments in ten columns.
	busy := newOwner(srv.base, 0, "08:00", "18:00", services(10, 60), 10)
	booker := newOwner(srv.base, 1, "00:00", "23:30", services(1, 30), 8)
	d, err := db.Open(context.Background(), srv.dir, dsn)
	must(err)
	now := time.Now().In(saoPaulo)
	from := time.Date(now.Year()-1, now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	must(benchseed.Appointments(context.Background(), d, busy.id, busy.pros, busy.svcs, *appts, from))
	seeded := srv.memory()
	fmt.Printf("seeded %d owners and %d appointments in %s (server RSS %d MB, peak so far %d MB)\n", *owners, *appts, time.Since(t0).Round(time.Second), seeded["VmRSS"], seeded["VmHWM"])

	week := now.AddDate(0, 0, -int(now.Weekday()))
	date := now.AddDate(0, 0, 3).Format("2006-01-02")
	pub := "/api/public/profiles/" + busy.username
	choice := fmt.Sprintf("professional=%s&service=%s", busy.pros[0].ID, busy.svcs[0].ID)
	get := func(path, token string) vegeta.Targeter {
		return func(t *vegeta.Target) error {
			t.Method, t.URL = "GET", srv.base+path
			t.Header = http.Header{"X-Forwarded-For": {ip()}}
			if token != "" {
				t.Header.Set("Authorization", "Bearer "+busy.token)
			}
			return nil
		}
	}
	var slot atomic.Uint64
	start := now.AddDate(0, 0, 1)
	book := func(t *vegeta.Target) error {
		n := slot.Add(1) - 1
		pro := booker.pros[n%uint64(len(booker.pros))]
		k := n / uint64(len(booker.pros))
		day := start.AddDate(0, 0, int(k/46)).Format("2006-01-02")
		at := fmt.Sprintf("%02d:%02d", (k%46)/2, 30*(k%2))
		body, _ := json.Marshal(map[string]string{"professionalId": pro.ID, "serviceId": booker.svcs[0].ID, "date": day, "time": at,
			"clientName": fmt.Sprintf("Cliente %d", n), "clientPhone": "11988887777"})
		t.Method, t.URL, t.Body = "POST", srv.base+"/api/public/profiles/"+booker.username+"/bookings", body
		t.Header = http.Header{"X-Forwarded-For": {ip()}, "Content-Type": {"application/json"}, "X-Agendei-Client": {"bench"}}
		return nil
	}
	// Many different clients: each request a random owner (the busiest one
	// half the time, else any of the others), professional, service and date
	// inside the booking window (90 days), so no two requests are alike. The
	// per-owner answer cache (internal/platform/memo) keys on the raw query:
	// a unique `bench` parameter makes every request a miss, so these rows
	// measure the computation itself (the owner's schedule setup stays cached
	// per data version, as in production). The parameter means nothing to the
	// server: the switch is the bench's, not a production option.
	var seq atomic.Uint64
	pick := func(n uint64, bench bool) (owner, string, string) {
		r := rand.New(rand.NewPCG(n, 0x5eed))
		o := busy
		if r.IntN(2) == 0 {
			o = small[r.IntN(len(small))]
		}
		choice := fmt.Sprintf("professional=%s&service=%s", o.pros[r.IntN(len(o.pros))].ID, o.svcs[r.IntN(len(o.svcs))].ID)
		if bench {
			choice += "&bench=" + strconv.FormatUint(n, 10)
		}
		return o, choice, now.AddDate(0, 0, r.IntN(90)).Format("2006-01-02")
	}
	rnd := func() (owner, string, string) { return pick(seq.Add(1), true) }
	randomTimes := func(t *vegeta.Target) error {
		o, choice, day := rnd()
		t.Method, t.URL = "GET", srv.base+"/api/public/profiles/"+o.username+"/times?date="+day+"&"+choice
		t.Header = http.Header{"X-Forwarded-For": {ip()}}
		return nil
	}
	randomDays := func(t *vegeta.Target) error {
		o, choice, day := rnd()
		t.Method, t.URL = "GET", srv.base+"/api/public/profiles/"+o.username+"/days?month="+day[:7]+"&"+choice
		t.Header = http.Header{"X-Forwarded-For": {ip()}}
		return nil
	}
	// The agenda's grids (issue 25) of the busiest owner, at random dates of
	// its two years and with the answer cache bypassed the same way: the day
	// of all ten professionals, and the week of one of them.
	randomGrid := func(days int, one bool) vegeta.Targeter {
		return func(t *vegeta.Target) error {
			n := seq.Add(1)
			r := rand.New(rand.NewPCG(n, 0x9e1d))
			first := now.AddDate(0, 0, r.IntN(730-days)-365)
			q := "from=" + first.Format("2006-01-02") + "&to=" + first.AddDate(0, 0, days-1).Format("2006-01-02")
			if one {
				q += "&professional=" + busy.pros[r.IntN(len(busy.pros))].ID
			}
			t.Method, t.URL = "GET", srv.base+"/api/agenda/grid?"+q+"&bench="+strconv.FormatUint(n, 10)
			t.Header = http.Header{"X-Forwarded-For": {ip()}, "Authorization": {"Bearer " + busy.token}}
			return nil
		}
	}
	// The day grid of all professionals of a random owner (the busiest
	// half the time, as pick chooses) at a random date of its two years,
	// driven at a fixed rate (-grid-rate, issue 40 §2: p99 ≤ 20 ms at 200
	// reads a second) rather than as fast as the connections go.
	ownerGrid := func(t *vegeta.Target) error {
		n := seq.Add(1)
		r := rand.New(rand.NewPCG(n, 0x6a1d))
		o := busy
		if r.IntN(2) == 0 {
			o = small[r.IntN(len(small))]
		}
		day := now.AddDate(0, 0, r.IntN(730)-365).Format("2006-01-02")
		t.Method, t.URL = "GET", srv.base+"/api/agenda/grid?from="+day+"&to="+day+"&bench="+strconv.FormatUint(n, 10)
		t.Header = http.Header{"X-Forwarded-For": {ip()}, "Authorization": {"Bearer " + o.token}}
		return nil
	}
	pc, oc := *connections, *ownerConns
	endpoints := []struct {
		name  string
		tr    vegeta.Targeter
		want  int
		conns int
		rate  int // requests a second; 0 drives the connections as fast as they go
	}{
		{"baseline: GET /healthz", get("/healthz", ""), 200, pc, 0},
		{"public booking data", get(pub, ""), 200, pc, 0},
		{"bookable days of a month", get(pub+"/days?month="+now.AddDate(0, 1, 0).Format("2006-01")+"&"+choice, ""), 200, pc, 0},
		{"free times of a day", get(pub+"/times?date="+date+"&"+choice, ""), 200, pc, 0},
		{"free times, random (no cache)", randomTimes, 200, pc, 0},
		{"bookable days, random (no cache)", randomDays, 200, pc, 0},
		{"booking creation", book, 201, pc, 0},
		{"baseline: GET /healthz", get("/healthz", ""), 200, oc, 0},
		{"agenda week", get("/api/appointments?from="+week.Format("2006-01-02")+"&to="+week.AddDate(0, 0, 6).Format("2006-01-02"), "owner"), 200, oc, 0},
		{"dashboard", get("/api/dashboard", "owner"), 200, oc, 0},
		{"reports", get("/api/reports", "owner"), 200, oc, 0},
		{"clients page", get("/api/clients?limit=50", "owner"), 200, oc, 0},
		{"clients CSV", get("/api/clients/export", "owner"), 200, oc, 0},
		{"day grid, random (no cache)", randomGrid(1, false), 200, oc, 0},
		{"week grid of one, random (no cache)", randomGrid(7, true), 200, oc, 0},
		{fmt.Sprintf("day grid, random owners at %d/s", *gridRate), ownerGrid, 200, oc, *gridRate},
	}
	var rows []row
	var conns []int
	for _, ep := range endpoints {
		if !strings.HasPrefix(ep.name, "baseline") && !chosen(ep.name) {
			continue
		}
		r := attack(ep.name, ep.tr, ep.want, ep.conns, ep.rate)
		r.rss, r.goSys = srv.memory()["VmRSS"], srv.goMemory()
		rows = append(rows, r)
		conns = append(conns, ep.conns)
	}
	fmt.Printf("%-36s %5s %9s %7s %9s %9s %7s %7s %7s\n", "endpoint", "conns", "req/s", "×base", "p50", "p99", "errors", "RSS", "Go")
	var base row
	baseOf := map[string]row{} // each row's baseline: the one run before it, at its number of connections
	for i, r := range rows {
		if strings.HasPrefix(r.name, "baseline") {
			base = r
		}
		baseOf[r.name] = base
		fmt.Printf("%-36s %5d %9.0f %6.0f%% %7.1fms %7.1fms %7.0f %4d MB %4d MB\n", r.name, conns[i], r.rps, 100*r.rps/base.rps, r.p50, r.p99, r.fail, r.rss, r.goSys)
	}
	base = rows[0]
	if asked("waitlist offer") {
		waitlistBench(srv.base, d, now, *owners+1)
	}
	if asked("write mix") {
		writeMixBench(engine, srv, now, *owners+2)
	}
	overlaps := countOverlaps(d, booker.id)
	d.Close()
	mem := srv.memory()
	fmt.Printf("server RSS: peak %d MB; now %d MB (heap %d MB, mapped files %d MB)\n", mem["VmHWM"], mem["VmRSS"], mem["RssAnon"], mem["RssFile"])

	// The targets, for the rows that ran (-only may leave some out).
	ran := map[string]row{}
	for _, r := range rows {
		ran[r.name] = r
	}
	if times, ok := ran["free times of a day"]; ok {
		check("free times ≥ 25% of baseline throughput, p99 < 20 ms", times.rps >= 0.25*base.rps && times.p99 < 20)
	}
	if rt, ok := ran["free times, random (no cache)"]; ok {
		check(fmt.Sprintf("free times of random days, uncached: %.0f%% of baseline (≥ 25%%), p99 %.1f ms (< 10 ms)", 100*rt.rps/base.rps, rt.p99), rt.rps >= 0.25*base.rps && rt.p99 < 10)
	}
	if rd, ok := ran["bookable days, random (no cache)"]; ok {
		check(fmt.Sprintf("bookable days of random months, uncached: %.0f%% of baseline (≥ 10%%), p99 %.1f ms (< 20 ms)", 100*rd.rps/base.rps, rd.p99), rd.rps >= 0.10*base.rps && rd.p99 < 20)
	}
	if books, ok := ran["booking creation"]; ok {
		if engine == "sqlite" {
			check("booking creation ≥ 500/s", books.rps >= 500)
		}
		check(fmt.Sprintf("no overlap among %d booked appointments", int(books.rps*duration.Seconds())), overlaps == 0 && books.fail == 0)
	}
	for _, n := range []string{"agenda week", "dashboard", "reports", "clients page", "clients CSV"} {
		if r, ok := ran[n]; ok {
			check(n+" p99 < 50 ms", r.p99 < 50)
		}
	}
	for _, n := range []string{"day grid, random (no cache)", "week grid of one, random (no cache)"} {
		if r, ok := ran[n]; ok {
			b := baseOf[n]
			check(fmt.Sprintf("%s: %.0f%% of baseline (≥ 20%%), p99 %.1f ms (≤ 20 ms)", n, 100*r.rps/b.rps, r.p99), r.rps >= 0.20*b.rps && r.p99 <= 20 && r.fail == 0)
		}
	}
	if r, ok := ran[fmt.Sprintf("day grid, random owners at %d/s", *gridRate)]; ok {
		check(fmt.Sprintf("day grid at %d/s: served %.0f/s, p99 %.1f ms (≤ 20 ms)", *gridRate, r.rps, r.p99), r.rps >= 0.95*float64(*gridRate) && r.p99 <= 20 && r.fail == 0)
	}
	check(fmt.Sprintf("peak RSS ≤ 150 MB (%d MB)", mem["VmHWM"]), mem["VmHWM"] > 0 && mem["VmHWM"] <= 150)

	// The live agenda at scale (live.go), on the server as it is after the
	// rows above, before the public read part restarts it.
	if asked("live agenda") {
		liveAgenda(engine, srv, append(slices.Clone(small), busy, booker))
	}
	// The reminders row (reminders.go): the same owners, sending through
	// instances started for it; srv is started again below.
	if strings.Contains("reminders", *only) {
		remindersBench(engine, srv, append(slices.Clone(small), busy, booker), now)
	}

	// The public read path with each of its mechanisms off in turn
	// (docs/decisions/0001 and 0002, docs/measurements.md): free times and
	// bookable days of random choices, cold (every request unlike any other,
	// as above) and cached as in production (repeated requests from a
	// bounded set of cachedSet, the answer cache keeping them).
	cached := func(path func(o owner, choice, day string) string) vegeta.Targeter {
		return func(t *vegeta.Target) error {
			o, choice, day := pick(seq.Add(1)%cachedSet, false)
			t.Method, t.URL = "GET", srv.base+path(o, choice, day)
			t.Header = http.Header{"X-Forwarded-For": {ip()}}
			return nil
		}
	}
	readRows := []struct {
		name string
		tr   vegeta.Targeter
	}{
		{"public read: times random, cold", randomTimes},
		{"public read: days random, cold", randomDays},
		{"public read: times random, cached", cached(func(o owner, choice, day string) string {
			return "/api/public/profiles/" + o.username + "/times?date=" + day + "&" + choice
		})},
		{"public read: days random, cached", cached(func(o owner, choice, day string) string {
			return "/api/public/profiles/" + o.username + "/days?month=" + day[:7] + "&" + choice
		})},
		// The rows the other switches exist for (the access token's cache,
		// the collector's settings): an owner's read, the busiest owner's
		// day grid at random dates, the answer cache bypassed.
		{"public read: owner's day grid, cold", randomGrid(1, false)},
		// A cached owner read (the dashboard, kept by the answer cache):
		// where checking the access token is the largest part of the work.
		{"public read: owner's dashboard, cached", get("/api/dashboard", "owner")},
	}
	readRows = slices.DeleteFunc(readRows, func(r struct {
		name string
		tr   vegeta.Targeter
	}) bool {
		return !chosen(r.name)
	})
	if len(readRows) == 0 {
		return
	}
	setups := append([]string{""}, config.BenchMechanisms...)
	// Each setting runs twice, in the order there and back (all on first and
	// last), so that a machine growing busier or quieter during the run
	// weighs on every setting alike; a row's share is the mean of its two.
	type key struct{ row, off string }
	got := map[key][]float64{}
	fmt.Printf("\npublic read, each mechanism off in turn (%s; load %s)\n", engine, loadAverage())
	fmt.Printf("%-36s %-14s %9s %7s %9s %9s %7s\n", "row", "off", "req/s", "×base", "p50", "p99", "errors")
	back := slices.Clone(setups)
	slices.Reverse(back)
	order := append(slices.Clone(setups), back...)
	for _, off := range order {
		srv.restart(off)
		busy.token = signIn(srv.base, busy) // the one from the start may have expired
		base := attack("baseline: GET /healthz", get("/healthz", ""), 200, pc, 0)
		label := off
		if label == "" {
			label = "(all on)"
		}
		fmt.Printf("%-36s %-14s %9.0f %6.0f%% %7.1fms %7.1fms %7.0f\n", base.name, label, base.rps, 100.0, base.p50, base.p99, base.fail)
		for _, rr := range readRows {
			r := attack(rr.name, rr.tr, 200, pc, 0)
			got[key{rr.name, off}] = append(got[key{rr.name, off}], r.rps/base.rps) // a share of the baseline measured with it
			fmt.Printf("%-36s %-14s %9.0f %6.0f%% %7.1fms %7.1fms %7.0f\n", rr.name, label, r.rps, 100*r.rps/base.rps, r.p50, r.p99, r.fail)
		}
	}
	share := func(k key) float64 {
		sum := 0.0
		for _, v := range got[k] {
			sum += v
		}
		return sum / float64(len(got[k]))
	}
	fmt.Printf("share of baseline, mean of both passes (load now %s):\n", loadAverage())
	for _, off := range setups {
		label := off
		if label == "" {
			label = "(all on)"
		}
		var parts []string
		for _, rr := range readRows {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", strings.TrimPrefix(rr.name, "public read: "), 100*share(key{rr.name, off})))
		}
		fmt.Printf("  %-14s %s\n", label, strings.Join(parts, ", "))
	}
	fmt.Printf("what each pays (share with it on / share with it off):\n")
	for _, off := range setups[1:] {
		var parts []string
		for _, rr := range readRows {
			parts = append(parts, fmt.Sprintf("%s %.2f×", strings.TrimPrefix(rr.name, "public read: "), share(key{rr.name, ""})/share(key{rr.name, off})))
		}
		fmt.Printf("  %-14s %s\n", off, strings.Join(parts, ", "))
	}
}

// cachedSet is how many different requests the cached public-read rows
// repeat: a bounded set of popular pages, as in production.
const cachedSet = 256

// loadAverage is the machine's 1, 5 and 15 minute load, from /proc.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func check(what string, ok bool) {
	mark := "ok  "
	if !ok {
		mark = "MISS"
	}
	fmt.Printf("  %s %s\n", mark, what)
}

// attack drives one endpoint with conns requests in flight, for the set
// duration or number of requests, whichever comes first.
func attack(name string, tr vegeta.Targeter, want, conns, rate int) row {
	// MaxBody(0): every answer is still read to its end, off the socket, but
	// not kept — vegeta otherwise grows a buffer for each body (a 31 kB grid
	// cost the generator, on the server's two cores, about as much CPU as
	// PostgreSQL spent reading it), and nothing here looks at bodies.
	// At a fixed rate the attacker opens more workers (and connections)
	// when answers lag, as clients would: the rate is kept, and the latency
	// shows what it costs.
	maxWorkers, pace := uint64(conns), vegeta.Rate{Freq: rate, Per: time.Second}
	if rate > 0 {
		maxWorkers = uint64(max(conns, rate/10))
	}
	a := vegeta.NewAttacker(vegeta.Workers(uint64(conns)), vegeta.MaxWorkers(maxWorkers),
		vegeta.Connections(int(maxWorkers)), vegeta.Timeout(30*time.Second), vegeta.KeepAlive(true), vegeta.MaxBody(0))
	// Exact percentiles of every latency (vegeta's Metrics estimates them
	// with a t-digest, whose upkeep per result took a share of the two
	// cores the server is measured on).
	lat := make([]time.Duration, 0, 1<<18)
	var first, last time.Time
	fail := 0.0
	codes := map[int]int{}
	for res := range a.Attack(tr, pace, *duration, name) {
		if len(lat)+1 == *maxRequests {
			a.Stop()
		}
		if first.IsZero() || res.Timestamp.Before(first) {
			first = res.Timestamp
		}
		if end := res.End(); end.After(last) {
			last = end
		}
		lat = append(lat, res.Latency)
		codes[int(res.Code)]++
		if int(res.Code) != want {
			fail++
		}
	}
	if fail > 0 {
		var cs []string
		for c, n := range codes {
			cs = append(cs, fmt.Sprintf("%d×%d", c, n))
		}
		sort.Strings(cs)
		fmt.Printf("  (%s: status codes %s)\n", name, strings.Join(cs, " "))
	}
	slices.Sort(lat)
	ms := func(q float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond)
	}
	rps := 0.0
	if span := last.Sub(first).Seconds(); span > 0 {
		rps = (float64(len(lat)) - fail) / span
	}
	return row{name: name, rps: rps, p50: ms(0.50), p99: ms(0.99), fail: fail}
}

// countOverlaps finds pairs of holding appointments of one professional that
// overlap in time, among the booker owner's.
func countOverlaps(d *db.DB, ownerID string) int {
	rows, err := d.QueryContext(context.Background(), `SELECT professional_id, starts_at, duration FROM appointments
		WHERE user_id = ? AND status IN ('confirmed', 'completed') ORDER BY professional_id, starts_at`, ownerID)
	must(err)
	defer rows.Close()
	overlaps, last, lastEnd := 0, "", time.Time{}
	for rows.Next() {
		var pro string
		var at time.Time
		var minutes int
		must(rows.Scan(&pro, &at, &minutes))
		if pro == last && at.Before(lastEnd) {
			overlaps++
		}
		last, lastEnd = pro, at.Add(time.Duration(minutes)*time.Minute)
	}
	must(rows.Err())
	return overlaps
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// chosen is whether -only picks the row with that name: one of its
// comma-separated texts is in the name ("" picks every row).
func chosen(name string) bool {
	for _, part := range strings.Split(*only, ",") {
		if strings.Contains(name, part) {
			return true
		}
	}
	return false
}

// asked is whether -only picks the section with that name: one of its
// comma-separated texts is part of it ("" picks every section).
func asked(section string) bool {
	for _, part := range strings.Split(*only, ",") {
		if strings.Contains(section, part) {
			return true
		}
	}
	return false
}

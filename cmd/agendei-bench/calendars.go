package main

// The calendars rows (issue 42, "Speed and scale"), each on its own
// `agendei serve` and fresh database, so nothing else of the bench reads or
// writes meanwhile:
//
//  1. "calendars: imports" — free times and bookable days of random owners
//     whose 5 professionals each have ~500 imported busy events (a third of
//     them instances of weekly recurring events), beside owners without
//     imports, in the same run. The events come the real way: each
//     professional's calendar address points at an ICS server in this
//     process and the server's own read job fetches, parses and imports it
//     (booking.Service.ImportBusy). Then one ImportBusy of 5,000 intervals
//     for a new professional, called from here on the same database: the
//     time that one transaction holds the owner's lock.
//  2. "calendars: 1000 addresses" — one instance reading -calendar-sources
//     addresses (~50 events each) every -calendar-read-every (the env switch
//     AGENDEI_CALENDAR_READ_EVERY, at least 1 m): half of them answer 304 to
//     If-None-Match/If-Modified-Since, a quarter send the same file again
//     without validators, a quarter change one event on every read. The
//     public rows (free times and bookable days of random owners among them,
//     at a fixed rate) with every read paused, then for a whole read cycle
//     with all of them due.
//  3. "calendars: write-back" — -calendar-changes appointment changes
//     (creates, moves, cancels, through the owner's API) of a professional
//     writing to a real Radicale; the server SIGKILLed once part of the
//     outbox (calendar_writes) is drained, started again, left to drain; then
//     the events in Radicale are counted against the appointments: one event
//     per holding appointment at its time, none for a cancelled one.

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/emersion/go-ical"
	"github.com/emersion/go-webdav"
	"github.com/emersion/go-webdav/caldav"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/agendei/agendei/internal/benchseed"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
)

var (
	calendarOwners  = flag.Int("calendar-owners", 50, "calendars: owners with imports, and as many without (5 professionals each)")
	calendarEvents  = flag.Int("calendar-events", 500, "calendars: busy events imported per professional of the imports row (a third recurring)")
	calendarSources = flag.Int("calendar-sources", 1000, "calendars: calendar addresses read by one instance (5 per owner)")
	calendarEvery   = flag.Duration("calendar-read-every", time.Minute, "calendars: AGENDEI_CALENDAR_READ_EVERY of the addresses row (at least 1m)")
	calendarRate    = flag.Int("calendar-rate", 200, "calendars: public requests a second of the addresses row")
	calendarChanges = flag.Int("calendar-changes", 10_000, "calendars: appointment changes written back to Radicale")
)

// The sections' names, for -only ("calendars" runs the three).
const (
	secImports   = "calendars: imports"
	secAddresses = "calendars: 1000 addresses"
	secWriteBack = "calendars: write-back"
)

// onlyCalendars is whether -only asks for calendars sections alone: then
// the rest of the bench (and its 1,000-owner seed) does not run.
func onlyCalendars() bool {
	if *only == "" {
		return false
	}
	for _, part := range strings.Split(*only, ",") {
		if !strings.HasPrefix(part, "calendars") {
			return false
		}
	}
	return true
}

// calendarsBench runs the asked calendars sections; fresh gives each its
// own database ("" on SQLite).
func calendarsBench(engine string, fresh func() string) {
	if asked(secImports) {
		importsRow(engine, fresh())
	}
	if asked(secAddresses) {
		addressesRow(engine, fresh())
	}
	if asked(secWriteBack) {
		writeBackRow(engine, fresh())
	}
}

// startWith starts agendei serve on a fresh data dir with more environment.
func startWith(dsn string, env ...string) *server {
	dir, err := os.MkdirTemp("", "agendei-bench-")
	must(err)
	s := &server{dir: dir, dsn: dsn, env: env}
	s.launch("")
	return s
}

// loopback lets the server read addresses on this machine (the operator's
// switch; without it a calendar on 127.0.0.1 is refused as inside).
const loopback = "AGENDEI_OUTBOUND_ALLOW=127.0.0.0/8"

// ---- the ICS server ----

// Modes of an address of icsServer, by its number n (n % 4).
const (
	modeValidators = iota // ETag and Last-Modified; 304 when unchanged (n%4 == 0 or 1)
	modeSame              // the same file, no validators: parsed and compared on every read
	modeChanging          // one event moves on every read (a new ETag)
)

func modeOf(n int) int {
	switch n % 4 {
	case 0, 1:
		return modeValidators
	case 2:
		return modeSame
	default:
		return modeChanging
	}
}

// icsServer serves /cal/{n}.ics: a calendar of events per address, as a
// calendar provider would, counting what it answered.
type icsServer struct {
	*httptest.Server
	events  int       // events per file, a third of them recurring instances
	today   time.Time // São Paulo's today at the start
	version []atomic.Int64
	served  atomic.Int64 // 200s
	notMod  atomic.Int64 // 304s
	cache   sync.Map     // "n/version" → body
}

func newICSServer(addresses, events int) *icsServer {
	now := time.Now().In(saoPaulo)
	s := &icsServer{events: events, today: time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, saoPaulo), version: make([]atomic.Int64, addresses)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

func (s *icsServer) url(n int) string { return fmt.Sprintf("%s/cal/%d.ics", s.URL, n) }

func (s *icsServer) reset() { s.served.Store(0); s.notMod.Store(0) }

func (s *icsServer) serve(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/cal/"), ".ics")
	n, err := strconv.Atoi(name)
	if err != nil || n < 0 || n >= len(s.version) {
		http.NotFound(w, r)
		return
	}
	mode := modeOf(n)
	v := s.version[n].Load()
	if mode == modeChanging && r.Header.Get("If-None-Match") != "" {
		v = s.version[n].Add(1) // the owner moved an event since the last read
	}
	body := s.file(n, int(v))
	if mode != modeSame {
		sum := sha256.Sum256(body)
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		modified := s.today.Add(time.Duration(v) * time.Minute).UTC().Format(http.TimeFormat)
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", modified)
		if inm := r.Header.Get("If-None-Match"); inm == etag || (inm == "" && r.Header.Get("If-Modified-Since") == modified) {
			s.notMod.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	s.served.Add(1)
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	_, _ = w.Write(body)
}

// file is address n's calendar at version v: s.events busy events inside
// the next 88 days between 08:00 and 18:00, São Paulo time — two thirds
// single events, a third the instances of weekly events (COUNT ≤ 8), plus
// one free (TRANSPARENT) and one cancelled event that take no time. A new
// version moves one single event by a day.
func (s *icsServer) file(n, v int) []byte {
	key := fmt.Sprintf("%d/%d", n, v)
	if b, ok := s.cache.Load(key); ok {
		return b.([]byte)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 0x1c5))
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//agendei-bench//ICS//PT\r\nCALSCALE:GREGORIAN\r\n")
	stamp := "20260101T000000Z"
	at := func(day, slot int) string {
		d := s.today.AddDate(0, 0, day)
		return fmt.Sprintf("%04d%02d%02dT%02d%02d00", d.Year(), d.Month(), d.Day(), 8+slot/2, 30*(slot%2))
	}
	ev := func(uid string, day, slot, minutes int, extra string) {
		fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:%s\r\nDTSTAMP:%s\r\nDTSTART;TZID=America/Sao_Paulo:%s\r\nDURATION:PT%dM\r\nSUMMARY:Compromisso %s\r\n%sEND:VEVENT\r\n",
			uid, stamp, at(day, slot), minutes, uid, extra)
	}
	recurring := s.events / 3
	for i := 0; recurring > 0; i++ {
		count := min(8, recurring)
		recurring -= count
		ev(fmt.Sprintf("rec-%d-%d@bench", n, i), 1+rng.IntN(30), rng.IntN(18), 30*(1+rng.IntN(3)), fmt.Sprintf("RRULE:FREQ=WEEKLY;COUNT=%d\r\n", count))
	}
	singles := s.events - s.events/3
	for i := range singles {
		day := 1 + rng.IntN(87)
		if i == 0 {
			day = 1 + (day+v)%87 // the event a new version moves
		}
		ev(fmt.Sprintf("one-%d-%d@bench", n, i), day, rng.IntN(18), 30*(1+rng.IntN(3)), "")
	}
	ev(fmt.Sprintf("free-%d@bench", n), 2, 4, 60, "TRANSP:TRANSPARENT\r\n")
	ev(fmt.Sprintf("cancelled-%d@bench", n), 3, 4, 60, "STATUS:CANCELLED\r\n")
	b.WriteString("END:VCALENDAR\r\n")
	out := []byte(b.String())
	s.cache.Store(key, out)
	return out
}

// ---- owners with calendar addresses ----

// makeOwners signs up count owners of 5 professionals (open every day
// 08:00–18:00, two 50-minute services), first from index first; with ics
// set, each professional's calendar address is ics's address number
// (owner's index − first)·5 + professional.
func makeOwners(base string, first, count int, ics *icsServer) []owner {
	out := make([]owner, count)
	work := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				o := newOwner(base, first+i, "08:00", "18:00", services(2, 50), 5)
				if ics != nil {
					for p, pro := range o.pros {
						if code := call(base, "PUT", "/api/calendars/"+pro.ID, o.token, map[string]any{"url": ics.url(i*5 + p), "allDay": "busy", "onFailure": "keep"}, nil); code != 200 {
							log.Fatalf("calendars: connect %s's address: %d", o.username, code)
						}
					}
				}
				out[i] = o
			}
		}()
	}
	for i := range count {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

// waitReads waits until every calendar source was read since since (a
// read that worked), or gives up after wait; it returns how many were.
func waitReads(d *db.DB, want int, since time.Time, wait time.Duration) (int, time.Duration) {
	start := time.Now()
	n := 0
	for deadline := start.Add(wait); ; time.Sleep(100 * time.Millisecond) {
		must(d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM calendar_sources WHERE last_read_at >= ?`, since.UTC()).Scan(&n))
		if n >= want || time.Now().After(deadline) {
			return n, time.Since(start)
		}
	}
}

// randomPublic is the public rows' targeter over a set of owners: free
// times of a random day or bookable days of a random month, of a random
// professional and service, each request unlike any other (the answer
// cache bypassed, as the random rows of main.go).
func randomPublic(base string, set []owner, days bool, salt uint64) vegeta.Targeter {
	var seq atomic.Uint64
	now := time.Now().In(saoPaulo)
	return func(t *vegeta.Target) error {
		n := seq.Add(1)
		r := rand.New(rand.NewPCG(n, salt))
		o := set[r.IntN(len(set))]
		q := fmt.Sprintf("professional=%s&service=%s&bench=%d-%d", o.pros[r.IntN(len(o.pros))].ID, o.svcs[r.IntN(len(o.svcs))].ID, salt, n)
		day := now.AddDate(0, 0, r.IntN(88)).Format("2006-01-02")
		path := "/times?date=" + day
		if days {
			path = "/days?month=" + day[:7]
		}
		t.Method, t.URL = "GET", base+"/api/public/profiles/"+o.username+path+"&"+q
		t.Header = http.Header{"X-Forwarded-For": {ip()}}
		return nil
	}
}

// attackFor is attack driven for d instead of -duration.
func attackFor(d time.Duration, name string, tr vegeta.Targeter, want, conns, rate int) row {
	saved := *duration
	*duration = d
	defer func() { *duration = saved }()
	return attack(name, tr, want, conns, rate)
}

func printRow(r row, conns int, base row) {
	fmt.Printf("  %-48s %5d %9.0f %6.0f%% %7.1fms %7.1fms %7.0f\n", r.name, conns, r.rps, 100*r.rps/base.rps, r.p50, r.p99, r.fail)
}

// ---- 1. imports ----

func importsRow(engine, dsn string) {
	ics := newICSServer(*calendarOwners*5, *calendarEvents)
	defer ics.Close()
	srv := startWith(dsn, loopback)
	defer srv.stop()
	d, err := db.Open(context.Background(), srv.dir, dsn)
	must(err)
	defer d.Close()
	t0 := time.Now()
	imported := makeOwners(srv.base, 0, *calendarOwners, ics)
	plain := makeOwners(srv.base, *calendarOwners, *calendarOwners, nil)
	// A third set: owners as busy, but with appointments instead of imports
	// (as many per professional, in the same days and hours), to tell the
	// imports' own cost from that of any busy time.
	booked := makeOwners(srv.base, 2**calendarOwners, *calendarOwners, nil)
	for i, o := range booked {
		must(benchseed.Spread(context.Background(), d, o.id, o.pros, o.svcs, *calendarEvents, time.Now().In(saoPaulo).AddDate(0, 0, 1), 87, uint64(i)))
	}
	if d.Dialect == db.Postgres {
		_, err = d.ExecContext(context.Background(), "ANALYZE")
	} else {
		err = d.Analyze(context.Background())
	}
	must(err)
	read, took := waitReads(d, *calendarOwners*5, t0, 10*time.Minute)
	var rows int
	must(d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM busy_imported`).Scan(&rows))
	fmt.Printf("\n%s (%s): %d owners with %d professionals' addresses read by the server's job (%d of them within %s of the last sign-up), %d busy intervals imported (%.0f a professional; %d events a file, a third recurring), beside %d owners without; load %s\n",
		secImports, engine, len(imported), *calendarOwners*5, read, took.Round(time.Second), rows, float64(rows)/float64(max(1, *calendarOwners*5)), *calendarEvents, len(plain), loadAverage())
	if want := *calendarOwners * 5 * *calendarEvents; read < *calendarOwners*5 || rows != want {
		check(fmt.Sprintf("%s: every address read (%d of %d), every event imported (%d of %d)", secImports, read, *calendarOwners*5, rows, want), false)
	}
	pc := *connections
	fmt.Printf("  %-48s %5s %9s %7s %9s %9s %7s\n", "row", "conns", "req/s", "×base", "p50", "p99", "errors")
	base := attack("baseline: GET /healthz", func(t *vegeta.Target) error {
		t.Method, t.URL, t.Header = "GET", srv.base+"/healthz", http.Header{"X-Forwarded-For": {ip()}}
		return nil
	}, 200, pc, 0)
	printRow(base, pc, base)
	// Each pair in the order without, with, with, without: a machine growing
	// busier or quieter weighs on both alike; the ratio is of the sums.
	for _, days := range []bool{false, true} {
		what := "free times"
		if days {
			what = "bookable days"
		}
		sets := [][]owner{plain, imported, booked}
		labels := []string{what + ", random owners without imports", what + ", random owners with imports", what + ", owners with as many appointments"}
		var sum [3]float64
		var p99 [3][]float64
		for i, k := range []int{0, 1, 2, 2, 1, 0} {
			r := attack(labels[k], randomPublic(srv.base, sets[k], days, uint64(i+1)), 200, pc, 0)
			printRow(r, pc, base)
			sum[k] += r.rps
			p99[k] = append(p99[k], r.p99)
		}
		ratio := sum[1] / sum[0]
		fmt.Printf("  %s of owners with imports at %.0f%% of owners with as many appointments instead\n", what, 100*sum[1]/sum[2])
		check(fmt.Sprintf("%s (%s): %s of owners with imports at %.0f%% of those without (≥ 90%%), p99 %.1f/%.1f ms against %.1f/%.1f ms",
			secImports, engine, what, 100*ratio, p99[1][0], p99[1][1], p99[0][0], p99[0][1]), ratio >= 0.90)
	}

	// The first import of 5,000 intervals: one ImportBusy of a new
	// professional of an owner with imports, from here on the same database.
	var pro struct{ ID string }
	o := imported[0]
	o.token = signIn(srv.base, o)
	if code := call(srv.base, "POST", "/api/professionals", o.token, map[string]string{"name": "Profissional nova", "specialization": "Psicóloga"}, &pro); code != 201 && code != 200 {
		log.Fatalf("calendars: a sixth professional: %d", code)
	}
	items := make([]booking.Interval, 0, booking.MaxImported)
	today := ics.today
	for i := range booking.MaxImported {
		start := today.AddDate(0, 0, 1+i/20).Add(time.Duration(8*60+30*(i%20)) * time.Minute)
		items = append(items, booking.Interval{UID: fmt.Sprintf("lock-%d@bench", i), Start: start, End: start.Add(30 * time.Minute)})
	}
	bs := &booking.Service{DB: d, Clock: clock.Real{}}
	ctx := context.Background()
	t1 := time.Now()
	res, err := bs.ImportBusy(ctx, o.id, pro.ID, "ics", items)
	must(err)
	first := time.Since(t1)
	t2 := time.Now()
	_, err = bs.ImportBusy(ctx, o.id, pro.ID, "ics", items)
	must(err)
	again := time.Since(t2)
	fmt.Printf("  the first import of %d intervals held the owner's lock %.0f ms (one ImportBusy transaction, changed %v); the same %d again (nothing to write) %.0f ms; load %s\n",
		len(items), ms(first), res.Changed, len(items), ms(again), loadAverage())
}

// ---- 2. many addresses ----

func addressesRow(engine, dsn string) {
	owners := max(1, *calendarSources/5)
	sources := owners * 5
	ics := newICSServer(sources, 50)
	defer ics.Close()
	srv := startWith(dsn, loopback, "AGENDEI_CALENDAR_READ_EVERY="+calendarEvery.String())
	defer srv.stop()
	d, err := db.Open(context.Background(), srv.dir, dsn)
	must(err)
	defer d.Close()
	ctx := context.Background()
	t0 := time.Now()
	set := makeOwners(srv.base, 0, owners, ics)
	read, took := waitReads(d, sources, t0, 10*time.Minute)
	fmt.Printf("\n%s (%s): %d addresses of %d owners (50 events each; half answer 304 to If-None-Match/If-Modified-Since, a quarter the same file without validators, a quarter one event moved on every read), read every %s; first reads of %d done %s after the last sign-up; load %s\n",
		secAddresses, engine, sources, owners, *calendarEvery, read, took.Round(time.Second), loadAverage())
	// Without: every read put off, and the queue's reads finished.
	_, err = d.ExecContext(ctx, `UPDATE calendar_sources SET next_read_at = ?`, time.Now().Add(24*time.Hour).UTC())
	must(err)
	idle(d)
	span := *calendarEvery + 15*time.Second // a whole cycle inside the row with reads
	pc, rate := *connections, *calendarRate
	mixed := func(salt uint64) vegeta.Targeter {
		times, days := randomPublic(srv.base, set, false, salt), randomPublic(srv.base, set, true, salt+1000)
		var n atomic.Uint64
		return func(t *vegeta.Target) error {
			if n.Add(1)%2 == 0 {
				return days(t)
			}
			return times(t)
		}
	}
	fmt.Printf("  %-48s %5s %9s %7s %9s %9s %7s\n", "row", "conns", "req/s", "×base", "p50", "p99", "errors")
	base := attack("baseline: GET /healthz", func(t *vegeta.Target) error {
		t.Method, t.URL, t.Header = "GET", srv.base+"/healthz", http.Header{"X-Forwarded-For": {ip()}}
		return nil
	}, 200, pc, 0)
	printRow(base, pc, base)
	without := attackFor(span, fmt.Sprintf("public times+days at %d/s, reads paused", rate), mixed(1), 200, pc, rate)
	printRow(without, pc, base)
	// With: a whole cycle of reads, twice — due in the five phases the read
	// job leaves them in (it queues what is due every fifth of the interval
	// and puts each next read one interval on, so an instance's addresses
	// fall on five ticks), and all due at once (after a restart that left
	// them overdue, or when the addresses were connected together).
	var ids []string
	must(db.Each(ctx, d, `SELECT id FROM calendar_sources ORDER BY id`, nil, func(r *sql.Rows) error {
		var id string
		ids = append(ids, id)
		return r.Scan(&ids[len(ids)-1])
	}))
	var verdicts []func(paused float64)
	for _, phases := range []int{5, 1} {
		ics.reset()
		due := time.Now().Add(time.Second)
		must(d.InTx(ctx, func(tx *db.Tx) error {
			for i, id := range ids {
				at := due.Add(time.Duration(i%phases) * *calendarEvery / 5)
				if _, err := tx.ExecContext(ctx, `UPDATE calendar_sources SET next_read_at = ? WHERE id = ?`, at.UTC(), id); err != nil {
					return err
				}
			}
			return nil
		}))
		// The cycle: from the first phase's due time until every address was
		// read; and the longest burst, from a phase's due time to the start
		// of its last read (last_read_at is when a read began), taken as
		// soon as the cycle is whole (the next one moves last_read_at on).
		type result struct{ took, burst time.Duration }
		cycle := make(chan result, 1)
		go func() {
			n, took := waitReads(d, sources, due, span)
			if n < sources {
				cycle <- result{-1, 0}
				return
			}
			var burst time.Duration
			for k := range phases {
				var raw any
				must(d.QueryRowContext(ctx, `SELECT MAX(last_read_at) FROM calendar_sources WHERE id IN (`+placeholders(ids, phases, k)+`)`, idsOf(ids, phases, k)...).Scan(&raw))
				last := asTime(raw)
				if !last.Valid {
					log.Printf("calendars: last_read_at came back as %T %v", raw, raw)
					continue
				}
				burst = max(burst, last.Time.Sub(due.Add(time.Duration(k)**calendarEvery/5)))
			}
			cycle <- result{took, burst}
		}()
		label := fmt.Sprintf("public times+days at %d/s, reads in 5 phases", rate)
		if phases == 1 {
			label = fmt.Sprintf("public times+days at %d/s, reads all at once", rate)
		}
		with := attackFor(span, label, mixed(uint64(2+phases)), 200, pc, rate)
		printRow(with, pc, base)
		res := <-cycle
		took, burst := res.took, res.burst
		served, notMod := ics.served.Load(), ics.notMod.Load()
		cycleText := "did not finish within the row"
		if took >= 0 {
			cycleText = fmt.Sprintf("%.1f s", took.Seconds())
		}
		var failing int
		must(d.QueryRowContext(ctx, `SELECT COUNT(*) FROM calendar_sources WHERE last_error <> ''`).Scan(&failing))
		fmt.Printf("  during the %s row: %d reads done (%d answered 304, %d a whole file); every address read %s after the first was due, the longest phase's reads all begun %.1f s after it was due; sources with an error %d; load %s\n",
			span, served+notMod, notMod, served, cycleText, burst.Seconds(), failing, loadAverage())
		verdicts = append(verdicts, func(paused float64) {
			check(fmt.Sprintf("%s (%s): %s: p99 %.1f ms against %.1f ms with reads paused (≤ 1.1× or +1 ms), %d reads, all read in %s",
				secAddresses, engine, strings.TrimPrefix(label, fmt.Sprintf("public times+days at %d/s, ", rate)), with.p99, paused, served+notMod, cycleText),
				took >= 0 && failing == 0 && with.fail == 0 && with.p99 <= max(1.1*paused, paused+1))
		})
	}
	// Paused again, the reads put off as before: the rows with reads sit
	// between two without, and are checked against their mean.
	_, err = d.ExecContext(ctx, `UPDATE calendar_sources SET next_read_at = ?`, time.Now().Add(24*time.Hour).UTC())
	must(err)
	idle(d)
	again := attackFor(span, fmt.Sprintf("public times+days at %d/s, reads paused", rate), mixed(9), 200, pc, rate)
	printRow(again, pc, base)
	for _, v := range verdicts {
		v((without.p99 + again.p99) / 2)
	}
}

// idle waits (up to 2 minutes) until the queue has no calendar read left.
func idle(d *db.DB) {
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		var n int
		must(d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE kind = 'calendar_read' AND done_at IS NULL AND attempts < max_attempts`).Scan(&n))
		if n == 0 {
			return
		}
	}
}

// placeholders and idsOf are the ids of phase k of phases (i % phases == k)
// as an IN list's placeholders and its arguments.
func placeholders(ids []string, phases, k int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", len(idsOf(ids, phases, k))), ", ")
}

func idsOf(ids []string, phases, k int) []any {
	var out []any
	for i, id := range ids {
		if i%phases == k {
			out = append(out, id)
		}
	}
	return out
}

// asTime reads a timestamp as either engine's driver gives it back from
// an aggregate (SQLite: text).
func asTime(v any) sql.NullTime {
	switch t := v.(type) {
	case time.Time:
		return sql.NullTime{Time: t, Valid: true}
	case string:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05"} {
			if p, err := time.Parse(layout, t); err == nil {
				return sql.NullTime{Time: p, Valid: true}
			}
		}
	case []byte:
		return asTime(string(t))
	}
	return sql.NullTime{}
}

// ---- 3. write-back across a SIGKILL ----

const writeBackKillAt = 0.4 // SIGKILL once this share of the pending writes is drained

func writeBackRow(engine, dsn string) {
	rad := startRadicale()
	defer rad.stop()
	srv := startWith(dsn, loopback)
	defer func() { srv.stop() }()
	d, err := db.Open(context.Background(), srv.dir, dsn)
	must(err)
	defer d.Close()
	ctx := context.Background()
	o := newOwner(srv.base, 0, "00:00", "23:30", services(1, 30), 1)
	pro, svc := o.pros[0], o.svcs[0]
	calendar := "/" + rad.user + "/agendei/"
	if code := call(srv.base, "PUT", "/api/calendars/"+pro.ID+"/caldav", o.token, map[string]any{"url": rad.url, "user": rad.user, "password": rad.password,
		"calendars": []string{}, "writeCalendar": calendar}, nil); code != 200 {
		log.Fatalf("calendars: connect Radicale: %d", code)
	}
	// The changes: creates at fresh slots, moves of a live appointment to a
	// fresh slot, cancels of a live one (about 60/25/15), by 8 clients. The
	// slots run ~200 days ahead, across national holidays, which the practice
	// keeps closed: the owner says "outside hours" yes, as on the agenda (else
	// 8 holidays × 46 slots = 368 changes were refused and written nothing).
	var mu sync.Mutex
	var live []string
	var slot atomic.Int64
	var creates, moves, cancels, refused atomic.Int64
	first := time.Now().In(saoPaulo).AddDate(0, 0, 2)
	next := func() (string, string) {
		k := int(slot.Add(1) - 1)
		return first.AddDate(0, 0, k/46).Format("2006-01-02"), fmt.Sprintf("%02d:%02d", (k%46)/2, 30*(k%2))
	}
	take := func(r *rand.Rand) string {
		mu.Lock()
		defer mu.Unlock()
		if len(live) < 20 {
			return ""
		}
		i := r.IntN(len(live))
		id := live[i]
		live[i] = live[len(live)-1]
		live = live[:len(live)-1]
		return id
	}
	put := func(id string) { mu.Lock(); live = append(live, id); mu.Unlock() }
	var seq atomic.Int64
	t0 := time.Now()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 0xca1))
			for seq.Add(1) <= int64(*calendarChanges) {
				x := r.Float64()
				if x >= 0.60 {
					if id := take(r); id != "" {
						if x < 0.85 {
							day, at := next()
							code := call(srv.base, "POST", "/api/appointments/"+id+"/reschedule", o.token, map[string]any{"date": day, "time": at, "outsideHours": true}, nil)
							if code != 200 {
								refused.Add(1)
							}
							moves.Add(1)
							put(id)
						} else {
							if code := call(srv.base, "PATCH", "/api/appointments/"+id, o.token, map[string]any{"status": "cancelled"}, nil); code != 200 {
								refused.Add(1)
								put(id)
							}
							cancels.Add(1)
						}
						continue
					}
				}
				day, at := next()
				var a struct{ ID string }
				n := seq.Load()
				code := call(srv.base, "POST", "/api/appointments", o.token, map[string]any{"professionalId": pro.ID, "serviceId": svc.ID, "date": day, "time": at,
					"clientName": fmt.Sprintf("Cliente %d", n), "clientPhone": "11988887777", "outsideHours": true}, &a)
				if code != 201 {
					refused.Add(1)
					continue
				}
				creates.Add(1)
				put(a.ID)
			}
		}()
	}
	wg.Wait()
	made := time.Since(t0)
	pending := func() int {
		var n int
		must(d.QueryRowContext(ctx, `SELECT COUNT(*) FROM calendar_writes`).Scan(&n))
		return n
	}
	atEnd := pending()
	fmt.Printf("\n%s (%s): %d changes (%d creates, %d moves, %d cancels; %d refused) of one professional in %.1f s; %d writes pending in the outbox then; load %s\n",
		secWriteBack, engine, creates.Load()+moves.Load()+cancels.Load(), creates.Load(), moves.Load(), cancels.Load(), refused.Load(), made.Seconds(), atEnd, loadAverage())
	// SIGKILL mid-drain.
	tEnd := time.Now()
	left := atEnd
	for deadline := time.Now().Add(30 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		left = pending()
		if float64(atEnd-left) >= writeBackKillAt*float64(atEnd) {
			break
		}
	}
	beforeKill := time.Since(tEnd)
	must(srv.cmd.Process.Signal(syscall.SIGKILL))
	_, _ = srv.cmd.Process.Wait()
	rate := float64(atEnd-left) / beforeKill.Seconds()
	fmt.Printf("  SIGKILLed the server (pid %d) %.1f s into the drain, %d of %d writes left: %.0f writes/s drained\n", srv.cmd.Process.Pid, beforeKill.Seconds(), left, atEnd, rate)
	srv.launch("")
	tRestart := time.Now()
	for deadline := time.Now().Add(30 * time.Minute); time.Now().Before(deadline) && pending() > 0; time.Sleep(250 * time.Millisecond) {
	}
	rest, after := pending(), time.Since(tRestart)
	var retried int
	must(d.QueryRowContext(ctx, `SELECT COUNT(*) FROM calendar_writes WHERE attempts > 0`).Scan(&retried))
	fmt.Printf("  restarted: the other %d writes drained %.1f s later (the killed drain's claimed batch waits its 2-minute lease), %d left, %d failed and waiting\n",
		left, after.Seconds(), rest, retried)

	// The count: the appointments as they are against the events in Radicale.
	type appt struct {
		starts time.Time
		holds  bool
	}
	want := map[string]appt{}
	must(db.Each(ctx, d, `SELECT id, starts_at, status FROM appointments WHERE user_id = ?`, []any{o.id}, func(r *sql.Rows) error {
		var id, status string
		var at time.Time
		if err := r.Scan(&id, &at, &status); err != nil {
			return err
		}
		want[id] = appt{at.UTC(), holds(status)}
		return nil
	}))
	events := rad.events(calendar)
	perUID := map[string]int{}
	stale, strays, ghosts := 0, 0, 0
	for _, e := range events {
		perUID[e.uid]++
		id, ok := strings.CutSuffix(e.uid, "@agendei")
		a, known := want[id]
		switch {
		case !ok || !known:
			strays++
		case !a.holds:
			ghosts++ // an event for a cancelled appointment
		case !e.start.Equal(a.starts):
			stale++ // at the time before a move
		}
	}
	duplicates := 0
	for _, n := range perUID {
		duplicates += n - 1
	}
	holding, lost := 0, 0
	for id, a := range want {
		if a.holds {
			holding++
			if perUID[id+"@agendei"] == 0 {
				lost++
			}
		}
	}
	fmt.Printf("  Radicale holds %d events for %d appointments that hold time (%d cancelled): duplicates %d, lost %d, for a cancelled one %d, at an old time %d, unknown %d; load %s\n",
		len(events), holding, len(want)-holding, duplicates, lost, ghosts, stale, strays, loadAverage())
	check(fmt.Sprintf("%s (%s): %d changes across a SIGKILL mid-drain (%d of %d left), 0 duplicates (%d), 0 lost (%d), none cancelled or stale (%d, %d), drain %.0f writes/s",
		secWriteBack, engine, *calendarChanges, left, atEnd, duplicates, lost, ghosts, stale, rate),
		rest == 0 && left > 0 && left < atEnd && duplicates == 0 && lost == 0 && ghosts == 0 && stale == 0 && strays == 0 && refused.Load() == 0)
}

func holds(status string) bool {
	for _, h := range booking.HoldingStatuses {
		if h == status {
			return true
		}
	}
	return false
}

// radicaleServer is a real Radicale (the Debian package), as
// internal/platform/caldav/radicale starts it for the tests — that one
// needs a testing.TB, so the bench starts its own the same way.
type radicaleServer struct {
	cmd                 *exec.Cmd
	dir                 string
	url, user, password string
}

func startRadicale() *radicaleServer {
	bin, err := exec.LookPath("radicale")
	if err != nil {
		log.Fatalf("calendars: radicale is not installed (apt-get install radicale): %v", err)
	}
	dir, err := os.MkdirTemp("", "agendei-bench-radicale-")
	must(err)
	s := &radicaleServer{dir: dir, user: "ana", password: "app-senha-0123"}
	must(os.WriteFile(filepath.Join(dir, "users"), []byte(s.user+":"+s.password+"\n"), 0o600))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := fmt.Sprintf("[server]\nhosts = 127.0.0.1:%d\n[auth]\ntype = htpasswd\nhtpasswd_filename = %s\nhtpasswd_encryption = plain\ndelay = 0\n[storage]\nfilesystem_folder = %s\n[rights]\ntype = owner_only\n[web]\ntype = none\n[logging]\nlevel = warning\n",
		port, filepath.Join(dir, "users"), filepath.Join(dir, "collections"))
	must(os.WriteFile(filepath.Join(dir, "config"), []byte(cfg), 0o600))
	s.cmd = exec.Command(bin, "--config", filepath.Join(dir, "config"))
	s.cmd.Stdout, s.cmd.Stderr = os.Stderr, os.Stderr
	must(s.cmd.Start())
	s.url = fmt.Sprintf("http://127.0.0.1:%d/", port)
	for i := 0; ; i++ {
		if r, err := http.Get(s.url + ".well-known/caldav"); err == nil {
			r.Body.Close()
			break
		}
		if i > 200 {
			log.Fatal("calendars: radicale did not answer in 20 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The calendar written to (MKCALENDAR, RFC 4791 §5.3.1).
	req, _ := http.NewRequest("MKCALENDAR", s.url+s.user+"/agendei/", strings.NewReader(`<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>Agendei</D:displayname></D:prop></D:set></C:mkcalendar>`))
	req.SetBasicAuth(s.user, s.password)
	req.Header.Set("Content-Type", "application/xml")
	res, err := http.DefaultClient.Do(req)
	must(err)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		log.Fatalf("calendars: MKCALENDAR: %d", res.StatusCode)
	}
	return s
}

func (s *radicaleServer) stop() {
	_ = s.cmd.Process.Kill()
	_, _ = s.cmd.Process.Wait()
	os.RemoveAll(s.dir)
}

type davEvent struct {
	uid   string
	start time.Time
}

// events lists every VEVENT of the calendar over CalDAV (a calendar-query
// without a time range: all of them), each object's events by UID and start.
func (s *radicaleServer) events(calendar string) []davEvent {
	c, err := caldav.NewClient(webdav.HTTPClientWithBasicAuth(http.DefaultClient, s.user, s.password), s.url)
	must(err)
	objs, err := c.QueryCalendar(context.Background(), calendar, &caldav.CalendarQuery{
		CompRequest: caldav.CalendarCompRequest{Name: ical.CompCalendar, AllProps: true, AllComps: true},
		CompFilter:  caldav.CompFilter{Name: ical.CompCalendar, Comps: []caldav.CompFilter{{Name: ical.CompEvent}}},
	})
	must(err)
	var out []davEvent
	for _, o := range objs {
		if o.Data == nil {
			continue
		}
		for _, ev := range o.Data.Events() {
			uid, _ := ev.Props.Text(ical.PropUID)
			start, err := ev.DateTimeStart(saoPaulo)
			if err != nil {
				log.Fatalf("calendars: an event in Radicale without a readable start: %v", err)
			}
			out = append(out, davEvent{uid: uid, start: start.UTC()})
		}
	}
	return out
}

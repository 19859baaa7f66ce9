package main

// The live agenda at scale (issue 28): owners' open tabs hold an event
// stream each (GET /api/events, Server-Sent Events). This part opens
// -streams of them against one instance, ten per owner (the broker's
// events.MaxStreams), reads the instance's resident set before and after,
// and drives public bookings of a few owners on that instance while their
// streams listen there and, on PostgreSQL, on a second instance on the same
// database: the time from each booking's request to its event on every
// subscriber of its owner, p50 and p99, and any event that never came.
// Everything is on loopback, bounded by -streams and -duration, and ends by
// itself.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// raiseFileLimit lifts this process's open-file limit (RLIMIT_NOFILE) to
// its hard limit, for the live agenda's streams: the bench holds one
// socket per stream, and the servers it starts inherit the raised limit
// (Go lifts the soft limit of its own process at start, but gives a child
// the original one back unless the program set the limit itself). It
// returns the limit now in force.
func raiseFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return lim.Cur
}

// stream is one open GET /api/events of an owner.
type stream struct {
	conn net.Conn
	body io.ReadCloser
}

// openStream opens an owner's event stream on base and waits for its
// "ready" event.
func openStream(base, token string) (*stream, error) {
	addr := strings.TrimPrefix(base, "http://")
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequest("GET", base+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, err
	}
	res, err := http.ReadResponse(bufio.NewReaderSize(conn, 512), req)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if res.StatusCode != 200 {
		conn.Close()
		return nil, fmt.Errorf("GET /api/events: %d", res.StatusCode)
	}
	s := &stream{conn: conn, body: res.Body}
	if ev, _, err := s.next(); err != nil || ev != "ready" {
		conn.Close()
		return nil, fmt.Errorf("no ready event (%q, %v)", ev, err)
	}
	_ = conn.SetDeadline(time.Time{})
	return s, nil
}

// next reads the stream's next event (heartbeat comments skipped).
func (s *stream) next() (event string, data []byte, err error) {
	var line []byte
	for {
		line, err = readLine(s.body)
		if err != nil {
			return "", nil, err
		}
		switch {
		case len(line) == 0 && event != "":
			return event, data, nil
		case bytes.HasPrefix(line, []byte("event: ")):
			event = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")):
			data = bytes.Clone(line[6:])
		}
	}
}

// readLine reads one line of r, a byte at a time (the body is already
// buffered below it).
func readLine(r io.Reader) ([]byte, error) {
	var line []byte
	var b [1]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, err
		}
		if b[0] == '\n' {
			return line, nil
		}
		line = append(line, b[0])
	}
}

// alive reports whether the server still holds the stream open: nothing
// read is pending but heartbeats, and the connection has not ended.
func (s *stream) alive() bool {
	_ = s.conn.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	defer s.conn.SetReadDeadline(time.Time{})
	var b [256]byte
	for {
		_, err := s.body.Read(b[:])
		if err == nil {
			continue
		}
		ne, ok := err.(net.Error)
		return ok && ne.Timeout()
	}
}

// openStreams opens n streams on base, ten per owner in turn, with 16 at a
// time; it stops at the first failure.
func openStreams(base string, owners []owner, n int) ([]*stream, error) {
	out := make([]*stream, n)
	var next atomic.Int64
	var first error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				s, err := openStream(base, owners[(i/10)%len(owners)].token)
				mu.Lock()
				if err != nil && first == nil {
					first = fmt.Errorf("stream %d: %w", i, err)
				}
				stop := first != nil
				mu.Unlock()
				if stop {
					next.Store(int64(n))
					return
				}
				out[i] = s
			}
		}()
	}
	wg.Wait()
	return slices.DeleteFunc(out, func(s *stream) bool { return s == nil }), first
}

// listener records when each booking's notification reached one stream of
// a booking owner's.
type listener struct {
	owner int // which of the booking owners
	mu    sync.Mutex
	got   map[string]time.Time // client name → arrival
}

func (l *listener) listen(s *stream) {
	for {
		ev, data, err := s.next()
		if err != nil {
			return
		}
		if ev != "notifications" {
			continue
		}
		at := time.Now()
		var d struct {
			Note *struct{ Description string }
		}
		if json.Unmarshal(data, &d) != nil || d.Note == nil {
			continue
		}
		name, _, _ := strings.Cut(d.Note.Description, " agendou ")
		l.mu.Lock()
		if _, seen := l.got[name]; !seen {
			l.got[name] = at
		}
		l.mu.Unlock()
	}
}

// liveBookers is how many owners take the live agenda's booking load: a
// practice's bookings are serialised on PostgreSQL (the owner's data
// version row), so the load of many practices is spread over several.
const liveBookers = 8

// liveAgenda runs the part against a, with a second instance on its
// database on PostgreSQL (on SQLite, one instance: delivery is measured
// within it). owners hold the streams; the first liveBookers of them, small
// owners open 08:00–18:00 with one professional, take the bookings, and
// their streams are read.
func liveAgenda(engine string, a *server, owners []owner) {
	n := *streams
	bookers := owners[:liveBookers]
	if need := (n + 9) / 10; len(owners) < need {
		fmt.Printf("\nlive agenda: %d streams need %d owners at ten each; -owners gives %d: %d streams\n", n, need, len(owners), 10*len(owners))
		n = 10 * len(owners)
	}
	fmt.Printf("\nlive agenda (%s; open-file limit %d; load %s)\n", engine, fileLimit, loadAverage())
	// The bookers' ten streams each on A come first, and are read.
	before, goBefore := a.memory(), a.goMemory()
	t0 := time.Now()
	open, err := openStreams(a.base, owners, n)
	defer func() {
		for _, s := range open {
			s.conn.Close()
		}
	}()
	if err != nil {
		fmt.Printf("  opened %d of %d streams: %v\n", len(open), n, err)
		check(fmt.Sprintf("one instance holds %d open event streams", n), false)
		return
	}
	opened := time.Since(t0)
	time.Sleep(5 * time.Second)
	held, goHeld := a.memory(), a.goMemory()
	growth := held["VmRSS"] - before["VmRSS"]
	fmt.Printf("  %d streams opened on one instance in %s; server RSS %d → %d MB (%+d MB), of it held by the Go runtime %d → %d MB (%+d MB, %.1f kB a stream)\n",
		len(open), opened.Round(time.Millisecond), before["VmRSS"], held["VmRSS"], growth, goBefore, goHeld, goHeld-goBefore,
		float64(goHeld-goBefore)*1024/float64(len(open)))

	var subs []*listener
	var where []string
	read := min(10*liveBookers, len(open))
	listenOn := func(label string, ss []*stream) {
		for i, s := range ss {
			l := &listener{owner: i / 10, got: map[string]time.Time{}}
			subs, where = append(subs, l), append(where, label)
			go l.listen(s)
		}
	}
	listenOn("same instance", open[:read])
	if engine == "postgres" {
		b := secondInstance(a)
		defer b.stop()
		remote, err := openStreams(b.base, bookers, 10*liveBookers)
		defer func() {
			for _, s := range remote {
				s.conn.Close()
			}
		}()
		if err != nil {
			fmt.Printf("  the second instance's streams: %v\n", err)
			check("streams on the second instance", false)
			return
		}
		listenOn("other instance", remote)
	}

	// The booking load: -connections clients book the bookers' free times
	// on A for -duration.
	sent, codes, lat := bookLoad(a.base, bookers)
	time.Sleep(3 * time.Second) // stragglers
	fmt.Printf("  bookings on the first instance: %d made in %s at %d connections over %d owners (p50 %.1f ms, p99 %.1f ms; status %v)\n",
		len(sent), *duration, *connections, liveBookers, pct(lat, 0.5), pct(lat, 0.99), codes)
	for _, label := range []string{"same instance", "other instance"} {
		var d, after []time.Duration // from the request; from its answer (< 0: before it)
		lost, count := 0, 0
		for i, l := range subs {
			if where[i] != label {
				continue
			}
			count++
			l.mu.Lock()
			for name, b := range sent {
				if b.owner != l.owner {
					continue
				}
				if got, ok := l.got[name]; ok {
					d, after = append(d, got.Sub(b.sent)), append(after, got.Sub(b.answered))
				} else {
					lost++
				}
			}
			l.mu.Unlock()
		}
		if count == 0 {
			continue
		}
		slices.Sort(d)
		slices.Sort(after)
		fmt.Printf("  booking request → event, %d subscribers on the %s: p50 %.1f ms, p99 %.1f ms, max %.1f ms; after the booking's answer: p50 %.1f ms, p99 %.1f ms; %d of %d deliveries missing\n",
			count, label, pct(d, 0.5), pct(d, 0.99), pct(d, 1), pct(after, 0.5), pct(after, 0.99), lost, lost+len(d))
		if label == "other instance" || engine != "postgres" {
			check(fmt.Sprintf("a change reaches every subscriber (%s) in p99 ≤ 1 s (%.0f ms), none lost", label, pct(d, 0.99)),
				len(d) > 0 && lost == 0 && pct(d, 0.99) <= 1000)
		}
	}
	after := a.memory()
	var alive atomic.Int64
	alive.Add(int64(read)) // the bookers', read all along
	work := make(chan *stream)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				if s.alive() {
					alive.Add(1)
				}
			}
		}()
	}
	for _, s := range open[read:] {
		work <- s
	}
	close(work)
	wg.Wait()
	fmt.Printf("  after the load: %d of %d streams still open; server RSS %d MB (peak %d MB)\n", alive.Load(), len(open), after["VmRSS"], after["VmHWM"])
	check(fmt.Sprintf("one instance holds %d open event streams with RSS growth ≤ 200 MB (%+d MB)", n, growth),
		len(open) == n && int(alive.Load()) == n && growth <= 200)
}

// booked is one booking of the load: whose, when its request was sent and
// when it was answered.
type booked struct {
	owner          int
	sent, answered time.Time
}

// bookLoad books the bookers' free times on base from -connections clients
// for -duration, one client name per booking ("Vivo N"), the owners in
// turn: the 201s, the status codes, and the requests' latencies.
func bookLoad(base string, bookers []owner) (sent map[string]booked, codes map[int]int, lat []time.Duration) {
	sent, codes = map[string]booked{}, map[int]int{}
	var mu sync.Mutex
	var seq atomic.Uint64
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *connections}, Timeout: 30 * time.Second}
	start := time.Now().In(saoPaulo).AddDate(0, 0, 1)
	end := time.Now().Add(*duration)
	var wg sync.WaitGroup
	for range *connections {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				n := seq.Add(1) - 1
				who := int(n % uint64(len(bookers)))
				o := bookers[who]
				k := n / uint64(len(bookers)) // the owner's k-th booking: ten a day, on the hour
				if k/10 >= 85 {
					return // the booking window is full
				}
				name := fmt.Sprintf("Vivo %d", n)
				body, _ := json.Marshal(map[string]string{"professionalId": o.pros[0].ID, "serviceId": o.svcs[0].ID,
					"date": start.AddDate(0, 0, int(k/10)).Format("2006-01-02"), "time": fmt.Sprintf("%02d:00", 8+k%10),
					"clientName": name, "clientPhone": "11988887777"})
				req, _ := http.NewRequest("POST", base+"/api/public/profiles/"+o.username+"/bookings", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Agendei-Client", "bench")
				req.Header.Set("X-Forwarded-For", ip())
				at := time.Now()
				res, err := client.Do(req)
				took := time.Since(at)
				code := 0
				if err == nil {
					code = res.StatusCode
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				mu.Lock()
				codes[code]++
				lat = append(lat, took)
				if code == 201 {
					sent[name] = booked{owner: who, sent: at, answered: at.Add(took)}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	client.CloseIdleConnections()
	slices.Sort(lat)
	return sent, codes, lat
}

// pct is the q-quantile of sorted durations, in milliseconds.
func pct(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	return float64(d[int(q*float64(len(d)-1))]) / float64(time.Millisecond)
}

// secondInstance starts another agendei on a's database, with a's keys
// (the files at the top of its data dir: a's access tokens hold there too)
// in a data dir of its own.
func secondInstance(a *server) *server {
	dir, err := os.MkdirTemp("", "agendei-bench-")
	must(err)
	files, err := os.ReadDir(a.dir)
	must(err)
	for _, f := range files {
		if f.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(a.dir, f.Name()))
			must(err)
			must(os.WriteFile(filepath.Join(dir, f.Name()), b, 0o600))
		}
	}
	b := &server{dir: dir, dsn: a.dsn}
	b.launch("")
	return b
}

package calendars_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/versions"
	"github.com/agendei/agendei/internal/server/servertest"
)

// feed serves a calendar file as Google does: with an ETag, answering a
// request that names it 304; fail makes it answer 500.
type feed struct {
	mu       sync.Mutex
	body     []byte
	etag     string
	fail     int
	requests []string // each request's If-None-Match ("" without)
}

func (f *feed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Header.Get("If-None-Match"))
	if r.Method != http.MethodGet {
		http.Error(w, "method", http.StatusMethodNotAllowed)
		return
	}
	if f.fail != 0 {
		http.Error(w, "erro", f.fail)
		return
	}
	if f.etag != "" && r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=UTF-8")
	w.Header().Set("ETag", f.etag)
	_, _ = w.Write(f.body)
}

type owner struct {
	c        *servertest.Client
	id       string
	pro, svc string
}

func setup(t *testing.T, e *servertest.Env) *owner {
	c := e.Client()
	var me struct{ User struct{ ID string } }
	c.Signup("Dona", "dona@example.com", "segredo1", "gato").JSON(t, &me)
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
	}
	c.Do("POST", "/api/onboarding", map[string]any{"name": "Dona", "area": "Psi", "publicUsername": "dona",
		"services": []map[string]any{{"name": "Sessão", "duration": 60, "priceCents": 10000}}, "days": days})
	var pro struct{ ID string }
	c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	return &owner{c: c, id: me.User.ID, pro: pro.ID, svc: svcs[0].ID}
}

func (o *owner) times(t *testing.T, e *servertest.Env, date string) []string {
	t.Helper()
	var out struct{ Times []string }
	r := e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/dona/times?date=%s&professional=%s&service=%s", date, o.pro, o.svc), nil)
	if r.StatusCode != 200 {
		t.Fatalf("times: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	return out.Times
}

type source struct {
	Host, LastError  string
	Events           int
	LastReadAt       *time.Time
	LastErrorAt      *time.Time
	FailingSince     *time.Time
	Kept, ShowTitles bool
}

func (o *owner) source(t *testing.T) source {
	t.Helper()
	var out struct{ Calendars []source }
	r := o.c.Do("GET", "/api/calendars", nil)
	if r.StatusCode != 200 {
		t.Fatalf("calendars: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	if len(out.Calendars) != 1 {
		t.Fatalf("calendars: %+v", out)
	}
	return out.Calendars[0]
}

// read runs the queued reads, as the background queue would.
func read(t *testing.T, e *servertest.Env) {
	t.Helper()
	for {
		ran, err := e.Server.Queue.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ran {
			return
		}
	}
}

// due makes every calendar due and runs its read.
func due(t *testing.T, e *servertest.Env) {
	t.Helper()
	e.Clock.Advance(5 * time.Minute)
	if _, err := e.Server.Calendars.QueueDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	read(t, e)
}

func version(t *testing.T, e *servertest.Env, owner string) int64 {
	v, err := versions.Of(context.Background(), e.DB, owner)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The check: a Google-style calendar address with a weekly event,
// a moved instance, a cancelled one and an all-day event → the public
// page stops offering exactly those times, and the owner's grid shows them
// without titles; an unchanged calendar (304) writes nothing; a failing one
// keeps its last busy time for 24 hours and says so, then lets it go.
func TestICS_TheAddressClosesExactlyItsBusyTimes(t *testing.T) {
	body, err := os.ReadFile("testdata/google.ics")
	if err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		f := &feed{body: body, etag: `"v1"`}
		srv := httptest.NewServer(f)
		defer srv.Close()
		o := setup(t, e)
		// Before: the Wednesday's 14:00 and the all-day Friday are offered.
		if !slices.Contains(o.times(t, e, "2026-12-02"), "14:00") || len(o.times(t, e, "2026-12-04")) == 0 {
			t.Fatal("not offered before the import")
		}
		r := o.c.Do("PUT", "/api/calendars/"+o.pro, map[string]any{"url": srv.URL + "/calendar/ical/dona%40gmail.com/private-abc/basic.ics"})
		if r.StatusCode != 200 || strings.Contains(string(r.Body), "private-abc") {
			t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		if s := o.source(t); s.Host != "127.0.0.1" || s.Events != 11 || s.LastReadAt == nil || s.LastError != "" {
			t.Fatalf("after the first read: %+v", s)
		}

		for _, c := range []struct {
			date        string
			gone, stays []string
		}{
			{"2026-12-02", []string{"13:30", "14:00", "14:30"}, []string{"13:00", "15:00"}}, // the weekly event
			{"2026-12-09", nil, []string{"14:00"}},                                          // its moved instance's old time
			{"2026-12-10", []string{"16:00"}, []string{"14:00", "17:00"}},                   // … and its new time
			{"2026-12-16", nil, []string{"14:00"}},                                          // the cancelled instance (EXDATE)
			{"2026-12-03", []string{"10:00"}, []string{"11:00", "14:00", "16:00"}},          // UTC; a free and a cancelled event take nothing
			{"2026-12-07", []string{"09:00"}, []string{"10:00"}},                            // floating: the owner's zone
			{"2026-12-08", []string{"08:00", "15:00"}, []string{"09:00", "11:00"}},          // Outlook's zone names; Agendei's own event (11:00) is not busy twice
		} {
			got := o.times(t, e, c.date)
			for _, hhmm := range c.gone {
				if slices.Contains(got, hhmm) {
					t.Errorf("%s %s still offered: %v", c.date, hhmm, got)
				}
			}
			for _, hhmm := range c.stays {
				if !slices.Contains(got, hhmm) {
					t.Errorf("%s %s no longer offered: %v", c.date, hhmm, got)
				}
			}
		}
		if got := o.times(t, e, "2026-12-04"); len(got) != 0 {
			t.Errorf("the all-day event's date still offers %v", got)
		}

		// The owner's grid: without titles.
		g := o.c.Do("GET", "/api/agenda/grid?from=2026-12-02&to=2026-12-02", nil)
		if !strings.Contains(string(g.Body), `"busy":[{"professionalId":"`+o.pro+`","date":"2026-12-02","start":"14:00","end":"15:00","title":""}]`) {
			t.Fatalf("grid: %s", g.Body)
		}

		// Unchanged (304): nothing written, the version stays.
		v := version(t, e, o.id)
		due(t, e)
		if last := f.requests[len(f.requests)-1]; last != `"v1"` {
			t.Fatalf("the read was not conditional: %q", last)
		}
		if version(t, e, o.id) != v {
			t.Fatal("a 304 bumped the owner's version")
		}

		// Failing: the last busy time stays, and the card says why.
		f.mu.Lock()
		f.fail = http.StatusInternalServerError
		f.mu.Unlock()
		due(t, e)
		s := o.source(t)
		if s.LastError != "o servidor da agenda está com problemas (HTTP 500)" || !s.Kept || s.LastErrorAt == nil {
			t.Fatalf("failing: %+v", s)
		}
		if slices.Contains(o.times(t, e, "2026-12-02"), "14:00") {
			t.Fatal("a failing calendar lost its busy time at once")
		}
		// After 24 hours of failing, the busy time goes.
		e.Clock.Advance(24 * time.Hour)
		due(t, e)
		o.c.Login("dona@example.com", "segredo1") // a day later: a new sign-in
		if s := o.source(t); s.Kept || s.Events != 0 {
			t.Fatalf("after 24 h: %+v", s)
		}
		if !slices.Contains(o.times(t, e, "2026-12-02"), "14:00") {
			t.Fatal("24 hours of failing kept the busy time")
		}
		// Working again: back, read whole.
		f.mu.Lock()
		f.fail = 0
		f.mu.Unlock()
		due(t, e)
		if s := o.source(t); s.LastError != "" || s.Events != 11 || slices.Contains(o.times(t, e, "2026-12-02"), "14:00") {
			t.Fatalf("recovered: %+v", s)
		}

		// Disconnecting gives the time back.
		if r := o.c.Do("DELETE", "/api/calendars/"+o.pro, nil); r.StatusCode != 204 {
			t.Fatalf("disconnect: %d %s", r.StatusCode, r.Body)
		}
		if !slices.Contains(o.times(t, e, "2026-12-02"), "14:00") {
			t.Fatal("disconnected, still busy")
		}

		// The address and its busy time go with the account.
		o.c.Do("PUT", "/api/calendars/"+o.pro, map[string]any{"url": srv.URL + "/b.ics"})
		read(t, e)
		if r := o.c.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"}); r.StatusCode != 200 {
			t.Fatalf("delete account: %d %s", r.StatusCode, r.Body)
		}
		for _, table := range []string{"calendar_sources", "busy_imported", "busy_flags"} {
			var n int
			if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%s after the account was deleted: %d %v", table, n, err)
			}
		}
	})
}

// An owner's address may not reach inside the operator's network: without
// the operator's allowance, a loopback calendar is refused at the dial
// and the card says so; an address that does not resolve says that.
func TestICS_AddressesInsideAreRefusedAndErrorsAreSaidInPortuguese(t *testing.T) {
	f := &feed{body: []byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")}
	srv := httptest.NewServer(f)
	defer srv.Close()
	e := servertest.StartWith(t, "sqlite", func(cfg *config.Config) { cfg.OutboundAllow = "" })
	o := setup(t, e)
	for _, c := range []struct{ url, want string }{
		{srv.URL + "/a.ics", "endereço não permitido (aponta para uma rede interna)"},
		{"http://169.254.169.254/latest/meta-data/", "endereço não permitido (aponta para uma rede interna)"},
		{"https://agenda.nao-existe.invalid/a.ics", "endereço não encontrado"},
	} {
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro, map[string]any{"url": c.url, "onFailure": "drop"}); r.StatusCode != 200 {
			t.Fatalf("connect %s: %d %s", c.url, r.StatusCode, r.Body)
		}
		// A new address starts afresh: the last one's failure is not its.
		if s := o.source(t); s.LastError != "" || s.LastErrorAt != nil || s.FailingSince != nil || s.LastReadAt != nil {
			t.Errorf("%s before its read: %+v", c.url, s)
		}
		read(t, e)
		if s := o.source(t); s.LastError != c.want || s.LastReadAt != nil {
			t.Errorf("%s: %+v", c.url, s)
		}
	}
	f.mu.Lock()
	n := len(f.requests)
	f.mu.Unlock()
	if n != 0 {
		t.Fatalf("the loopback server was reached %d times", n)
	}
	for _, bad := range []string{"file:///etc/passwd", "gopher://x/", "calendario", ""} {
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro, map[string]any{"url": bad, "allDay": "talvez"}); r.StatusCode != 400 {
			t.Errorf("%q: %d %s", bad, r.StatusCode, r.Body)
		}
	}
	if r := o.c.Do("PUT", "/api/calendars/outro", map[string]any{"url": "https://example.com/a.ics"}); r.StatusCode != 404 {
		t.Errorf("another's professional: %d", r.StatusCode)
	}
}

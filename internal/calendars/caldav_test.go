package calendars_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/caldav/radicale"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

const radicaleEvent = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Apple Inc.//iOS 17//EN
BEGIN:VEVENT
UID:%UID%
DTSTAMP:20261101T120000Z
DTSTART:%START%
DTEND:%END%
SUMMARY:Dentista
END:VEVENT
END:VCALENDAR
`

func event(uid, start, end string) string {
	return strings.NewReplacer("%UID%", uid, "%START%", start, "%END%", end).Replace(radicaleEvent)
}

// The check against a real CalDAV server: connect with an app
// password (a wrong one is refused in pt-BR), pick calendars, and an event
// created there blocks its time within one read; an unchanged calendar
// (same getctag/sync-token) reads no events and writes nothing; Agendei's
// own events there never count; disconnecting gives the time back.
func TestCalDAV_ConnectPickAndReadBusyTime(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rad := radicale.Start(t)
		personal := rad.Calendar(t, "pessoal", "Pessoal")
		written := rad.Calendar(t, "agendei", "Consultório")
		o := setup(t, e)
		base := "/api/calendars/" + o.pro + "/caldav"

		r := o.c.Do("POST", base+"/discover", map[string]any{"url": rad.URL, "user": rad.User, "password": "errada"})
		if r.StatusCode != 400 || !strings.Contains(string(r.Body), "caldav_auth") || !strings.Contains(string(r.Body), "senha de app") {
			t.Fatalf("a wrong password: %d %s", r.StatusCode, r.Body)
		}
		var found struct{ Calendars []struct{ Path, Name string } }
		r = o.c.Do("POST", base+"/discover", map[string]any{"url": rad.URL, "user": rad.User, "password": rad.Password})
		if r.StatusCode != 200 {
			t.Fatalf("discover: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &found)
		if len(found.Calendars) != 2 || found.Calendars[0].Name != "Consultório" || found.Calendars[0].Path != written || found.Calendars[1].Path != personal {
			t.Fatalf("discovered: %+v", found)
		}
		// A calendar that is not the account's is refused.
		if r := o.c.Do("PUT", base, map[string]any{"url": rad.URL, "user": rad.User, "password": rad.Password, "calendars": []string{"/outro/x/"}}); r.StatusCode != 400 {
			t.Fatalf("a foreign calendar: %d %s", r.StatusCode, r.Body)
		}

		rad.Put(t, personal, "dentista-1", event("dentista-1", "20261202T170000Z", "20261202T180000Z")) // 14:00 in São Paulo
		rad.Put(t, personal, "own-1", event("appt-1@agendei", "20261203T170000Z", "20261203T180000Z"))  // Agendei's own
		if !slices.Contains(o.times(t, e, "2026-12-02"), "14:00") {
			t.Fatal("not offered before the read")
		}
		r = o.c.Do("PUT", base, map[string]any{"url": rad.URL, "user": rad.User, "password": rad.Password, "calendars": []string{personal}, "writeCalendar": written})
		if r.StatusCode != 200 || strings.Contains(string(r.Body), rad.Password) {
			t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		if s := o.source(t); s.Host != "127.0.0.1" || s.Events != 1 || s.LastReadAt == nil || s.LastError != "" {
			t.Fatalf("after the first read: %+v", s)
		}
		if got := o.times(t, e, "2026-12-02"); slices.Contains(got, "14:00") || !slices.Contains(got, "15:00") {
			t.Fatalf("the event's time is still offered: %v", got)
		}
		if !slices.Contains(o.times(t, e, "2026-12-03"), "14:00") {
			t.Fatal("Agendei's own event counted as busy")
		}

		// Unchanged: nothing written.
		v := version(t, e, o.id)
		due(t, e)
		if version(t, e, o.id) != v {
			t.Fatal("an unchanged calendar bumped the owner's version")
		}
		// Changed there: read again within one read.
		rad.Delete(t, personal, "dentista-1")
		rad.Put(t, personal, "escola", event("escola", "20261202T190000Z", "20261202T200000Z")) // 16:00
		due(t, e)
		if got := o.times(t, e, "2026-12-02"); !slices.Contains(got, "14:00") || slices.Contains(got, "16:00") {
			t.Fatalf("after the change there: %v", got)
		}

		// Saving the choices again keeps the stored password.
		if r := o.c.Do("PUT", base, map[string]any{"calendars": []string{personal}, "writeCalendar": ""}); r.StatusCode != 200 {
			t.Fatalf("save without the password: %d %s", r.StatusCode, r.Body)
		}
		if r := o.c.Do("DELETE", base, nil); r.StatusCode != 204 {
			t.Fatalf("disconnect: %d %s", r.StatusCode, r.Body)
		}
		if !slices.Contains(o.times(t, e, "2026-12-02"), "16:00") {
			t.Fatal("disconnected, still busy")
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM calendar_sources`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("rows after disconnect: %d %v", n, err)
		}
	})
}

// Discovery says in pt-BR what went wrong, as a 4xx: a server that is not
// CalDAV, an address inside the operator's network (refused at the dial
// without the operator's allowance), a field missing, another owner's
// professional.
func TestCalDAV_DiscoveryErrorsAreSaidInPortuguese(t *testing.T) {
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>Bem-vindo</html>"))
	}))
	defer web.Close()
	e := servertest.StartWith(t, "sqlite", func(cfg *config.Config) { cfg.OutboundAllow = "" })
	o := setup(t, e)
	base := "/api/calendars/" + o.pro + "/caldav/discover"
	for _, c := range []struct {
		body map[string]any
		code int
		want string
	}{
		{map[string]any{"url": web.URL, "user": "ana", "password": "x"}, 400, "endereço não permitido (aponta para uma rede interna)"},
		{map[string]any{"url": "http://169.254.169.254/", "user": "ana", "password": "x"}, 400, "endereço não permitido"},
		{map[string]any{"url": "https://caldav.nao-existe.invalid/", "user": "ana", "password": "x"}, 400, "endereço não encontrado"},
		{map[string]any{"url": "ftp://x/", "user": "ana", "password": "x"}, 400, "Endereço do servidor inválido"},
		{map[string]any{"url": "https://caldav.icloud.com", "user": "ana"}, 400, "senha de app"},
	} {
		r := o.c.Do("POST", base, c.body)
		if r.StatusCode != c.code || !strings.Contains(string(r.Body), c.want) {
			t.Errorf("%v: %d %s", c.body, r.StatusCode, r.Body)
		}
	}
	if r := o.c.Do("POST", "/api/calendars/outro/caldav/discover", map[string]any{"url": "https://caldav.icloud.com", "user": "a", "password": "b"}); r.StatusCode != 404 {
		t.Errorf("another's professional: %d", r.StatusCode)
	}
	// With loopback allowed (as the other tests run), a server that is not CalDAV says so.
	e2 := servertest.StartWith(t, "sqlite", nil)
	o2 := setup(t, e2)
	r := o2.c.Do("POST", "/api/calendars/"+o2.pro+"/caldav/discover", map[string]any{"url": web.URL, "user": "ana", "password": "x"})
	if r.StatusCode != 400 || !strings.Contains(string(r.Body), "caldav_unreachable") {
		t.Errorf("a web page, not CalDAV: %d %s", r.StatusCode, r.Body)
	}
}

// counting stands in front of a CalDAV server and counts the
// calendar-queries (REPORT) per calendar, to see which calendars a read read.
type counting struct {
	mu      sync.Mutex
	reports map[string]int
	proxy   *httputil.ReverseProxy
}

func countReports(t *testing.T, target string) (*counting, string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	c := &counting{reports: map[string]int{}, proxy: httputil.NewSingleHostReverseProxy(u)}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return c, srv.URL + "/"
}

func (c *counting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == "REPORT" {
		c.mu.Lock()
		c.reports[r.URL.Path]++
		c.mu.Unlock()
	}
	c.proxy.ServeHTTP(w, r)
}

func (c *counting) count(calendar string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reports[calendar]
}

// Issue 42 §2's follow-up: each chosen calendar keeps its own State and its
// own busy time, so a read reads (REPORT) only the calendars that changed and
// keeps the others' busy time as it is; a calendar deleted on the server
// gives its time back and the card says so while the others are still read;
// the whole re-read every 6 hours, by another instance after a restart,
// reads every calendar and changes nothing that had not changed.
func TestCalDAV_AReadReadsOnlyTheCalendarsThatChanged(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rad := radicale.Start(t)
		personal := rad.Calendar(t, "pessoal", "Pessoal")
		work := rad.Calendar(t, "trabalho", "Trabalho")
		counter, address := countReports(t, rad.URL)
		o := setup(t, e)
		rad.Put(t, personal, "dentista", event("dentista", "20261202T170000Z", "20261202T180000Z")) // 14:00 in São Paulo
		rad.Put(t, work, "plantao", event("plantao", "20261202T190000Z", "20261202T200000Z"))       // 16:00
		r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/caldav", map[string]any{"url": address, "user": rad.User, "password": rad.Password, "calendars": []string{personal, work}})
		if r.StatusCode != 200 {
			t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		busy := func(date string, want ...string) {
			t.Helper()
			got := o.times(t, e, date)
			for _, hhmm := range want {
				if slices.Contains(got, hhmm) {
					t.Errorf("%s %s is offered: %v", date, hhmm, got)
				}
			}
		}
		free := func(date string, want ...string) {
			t.Helper()
			got := o.times(t, e, date)
			for _, hhmm := range want {
				if !slices.Contains(got, hhmm) {
					t.Errorf("%s %s is not offered: %v", date, hhmm, got)
				}
			}
		}
		reports := func(wantPersonal, wantWork int) {
			t.Helper()
			if p, w := counter.count(personal), counter.count(work); p != wantPersonal || w != wantWork {
				t.Fatalf("calendar-queries: personal %d (want %d), work %d (want %d)", p, wantPersonal, w, wantWork)
			}
		}
		reports(1, 1)
		busy("2026-12-02", "14:00", "16:00")
		free("2026-12-02", "15:00")
		if s := o.source(t); s.Events != 2 || s.LastError != "" {
			t.Fatalf("after the first read: %+v", s)
		}

		// An event added to one calendar: only that one is read, and both
		// calendars' busy times are right after it.
		rad.Put(t, work, "reuniao", event("reuniao", "20261203T130000Z", "20261203T140000Z")) // 10:00
		due(t, e)
		reports(1, 2)
		busy("2026-12-02", "14:00", "16:00")
		busy("2026-12-03", "10:00")
		if s := o.source(t); s.Events != 3 || s.LastError != "" {
			t.Fatalf("after the change in one calendar: %+v", s)
		}
		// An event removed from the other: only that one is read.
		rad.Delete(t, personal, "dentista")
		due(t, e)
		reports(2, 2)
		free("2026-12-02", "14:00")
		busy("2026-12-02", "16:00")
		busy("2026-12-03", "10:00")
		// Nothing changed: nothing read, nothing written.
		v := version(t, e, o.id)
		due(t, e)
		reports(2, 2)
		if version(t, e, o.id) != v {
			t.Fatal("an unchanged account bumped the owner's version")
		}

		// Another instance after a restart, 6 hours on: the whole window is
		// read again, every calendar, and nothing that had not changed is written.
		rad.Put(t, personal, "escola", event("escola", "20261204T170000Z", "20261204T180000Z")) // 14:00
		peer := e.Peer()
		e.Clock.Advance(6 * time.Hour)
		if _, err := peer.Server.Calendars.QueueDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		for {
			ran, err := peer.Server.Queue.RunOnce(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !ran {
				break
			}
		}
		reports(3, 3)
		busy("2026-12-02", "16:00")
		busy("2026-12-03", "10:00")
		busy("2026-12-04", "14:00")
		free("2026-12-02", "14:00")
		o.c.Login("dona@example.com", "segredo1") // 6 hours on: a new sign-in
		if s := o.source(t); s.Events != 3 || s.LastError != "" {
			t.Fatalf("after the whole re-read: %+v", s)
		}

		// A calendar deleted on the server: its time is given back, the other
		// calendar still counts (and, unchanged, is not read), the card says so.
		rad.DeleteCalendar(t, personal)
		due(t, e)
		reports(3, 3)
		free("2026-12-04", "14:00")
		busy("2026-12-02", "16:00")
		busy("2026-12-03", "10:00")
		s := o.source(t)
		if s.Events != 2 || !strings.Contains(s.LastError, "não existe mais no servidor") || s.LastErrorAt == nil || s.FailingSince != nil || s.Kept {
			t.Fatalf("after a calendar was deleted: %+v", s)
		}
		// Still said at the next read, when nothing changed; the other
		// calendar changing is read alone.
		due(t, e)
		if s := o.source(t); !strings.Contains(s.LastError, "não existe mais no servidor") || s.Events != 2 {
			t.Fatalf("the next unchanged read: %+v", s)
		}
		reports(3, 3)
		rad.Put(t, work, "almoco", event("almoco", "20261207T150000Z", "20261207T160000Z")) // 12:00
		due(t, e)
		reports(3, 4)
		busy("2026-12-07", "12:00")
		busy("2026-12-02", "16:00")

		// Disconnecting gives every calendar's time back.
		o.c.Login("dona@example.com", "segredo1") // the sign-in above is 15 minutes old
		if r := o.c.Do("DELETE", "/api/calendars/"+o.pro+"/caldav", nil); r.StatusCode != 204 {
			t.Fatalf("disconnect: %d %s", r.StatusCode, r.Body)
		}
		free("2026-12-02", "16:00")
		free("2026-12-07", "12:00")
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM busy_imported`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("busy rows after disconnect: %d %v", n, err)
		}
	})
}

// A calendar the owner no longer chooses gives its time back at the read
// that saving the choice queues; and the one 'caldav' source of before each
// calendar had its own goes at the read after migration 00072 forgot the
// States, which reads every calendar into its own.
func TestCalDAV_ACalendarNoLongerChosenAndTheSourceOfBeforeGo(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		rad := radicale.Start(t)
		personal := rad.Calendar(t, "pessoal", "Pessoal")
		work := rad.Calendar(t, "trabalho", "Trabalho")
		o := setup(t, e)
		rad.Put(t, personal, "dentista", event("dentista", "20261202T170000Z", "20261202T180000Z")) // 14:00
		rad.Put(t, work, "plantao", event("plantao", "20261202T190000Z", "20261202T200000Z"))       // 16:00
		base := "/api/calendars/" + o.pro + "/caldav"
		if r := o.c.Do("PUT", base, map[string]any{"url": rad.URL, "user": rad.User, "password": rad.Password, "calendars": []string{personal, work}}); r.StatusCode != 200 {
			t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		if got := o.times(t, e, "2026-12-02"); slices.Contains(got, "14:00") || slices.Contains(got, "16:00") {
			t.Fatalf("after the first read: %v", got)
		}
		if r := o.c.Do("PUT", base, map[string]any{"calendars": []string{work}}); r.StatusCode != 200 {
			t.Fatalf("choose again: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		if got := o.times(t, e, "2026-12-02"); !slices.Contains(got, "14:00") || slices.Contains(got, "16:00") {
			t.Fatalf("after the personal calendar was unticked: %v", got)
		}

		// A row as the read before wrote it, under 'caldav' alone.
		if _, err := e.DB.ExecContext(ctx, `INSERT INTO busy_imported (user_id, professional_id, source, uid, starts_at, ends_at) VALUES (?, ?, 'caldav', 'antigo', ?, ?)`,
			o.id, o.pro, time.Date(2026, 12, 4, 17, 0, 0, 0, time.UTC), time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(o.times(t, e, "2026-12-04"), "14:00") {
			t.Fatal("the row of before does not count")
		}
		// What migration 00072 does.
		if _, err := e.DB.ExecContext(ctx, `UPDATE calendar_sources SET sync = '{}' WHERE kind = 'caldav'`); err != nil {
			t.Fatal(err)
		}
		due(t, e)
		if !slices.Contains(o.times(t, e, "2026-12-04"), "14:00") || slices.Contains(o.times(t, e, "2026-12-02"), "16:00") {
			t.Fatal("after the read that follows the migration")
		}
		var sources []string
		if err := db.Each(ctx, e.DB, `SELECT DISTINCT source FROM busy_imported`, nil, func(r *sql.Rows) error {
			var s string
			sources = append(sources, s)
			return r.Scan(&sources[len(sources)-1])
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sources, []string{"caldav:" + work}) {
			t.Fatalf("sources: %v", sources)
		}
	})
}

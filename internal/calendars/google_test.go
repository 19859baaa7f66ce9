package calendars_test

import (
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/calendars"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/platform/gcal/gcaltest"
	"github.com/agendei/agendei/internal/server/servertest"
)

const (
	googleClient = "123456789012-agendei.apps.googleusercontent.com"
	googleSecret = "GOCSPX-operator-secret"
	primaryCal   = "dona@gmail.com"
	officeCal    = "c_consultorio@group.calendar.google.com"
)

// eachGoogle is each engine with the operator's Google client configured
// on the server and on the fake, whose account has a primary calendar and
// a second one.
func eachGoogle(t *testing.T, fn func(t *testing.T, e *servertest.Env, g *gcaltest.Google)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			g := gcaltest.New(googleClient, googleSecret, "")
			t.Cleanup(g.Close)
			e := servertest.StartWith(t, dialect, func(c *config.Config) {
				ep := g.Endpoints()
				c.GoogleClientID, c.GoogleClientSecret = googleClient, googleSecret
				c.GoogleAuthURL, c.GoogleTokenURL, c.GoogleRevokeURL, c.GoogleAPIURL = ep.AuthURL, ep.TokenURL, ep.RevokeURL, ep.API
			})
			g.RedirectURI = e.HTTP.URL + "/profile/google"
			g.AddCalendar(primaryCal, "Dona", "owner", true)
			g.AddCalendar(officeCal, "Consultório", "writer", false)
			fn(t, e, g)
			if p := g.Problems(); len(p) > 0 {
				t.Errorf("the fake Google refused: %v", p)
			}
		})
	}
}

// pressGoogle presses "Conectar Google Agenda" and goes through the consent
// page: the code and state Google sent back to /profile/google.
func (o *owner) pressGoogle(t *testing.T, e *servertest.Env, g *gcaltest.Google) url.Values {
	t.Helper()
	var st struct{ URL string }
	r := o.c.Do("POST", "/api/calendars/"+o.pro+"/google", nil)
	if r.StatusCode != 200 {
		t.Fatalf("start: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &st)
	back, err := g.Approve(st.URL)
	if err != nil {
		t.Fatalf("consent: %v %v", err, g.Problems())
	}
	if !strings.HasPrefix(back.String(), e.HTTP.URL+"/profile/google?") {
		t.Fatalf("sent back to %s", back)
	}
	return back.Query()
}

func (o *owner) finishGoogle(q url.Values) *servertest.Response {
	return o.c.Do("POST", "/api/calendars/google/finish", map[string]string{"code": q.Get("code"), "state": q.Get("state"), "error": q.Get("error")})
}

func sp(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.ParseInLocation("2006-01-02 15:04", s, time.FixedZone("BRT", -3*3600))
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func offered(t *testing.T, o *owner, e *servertest.Env, date string, gone, stays []string) {
	t.Helper()
	got := o.times(t, e, date)
	for _, hhmm := range gone {
		if slices.Contains(got, hhmm) {
			t.Errorf("%s %s still offered: %v", date, hhmm, got)
		}
	}
	for _, hhmm := range stays {
		if !slices.Contains(got, hhmm) {
			t.Errorf("%s %s not offered: %v", date, hhmm, got)
		}
	}
}

// The check: from the button to busy times in the public times —
// the owner's Google event closes exactly its time; only the chosen
// calendars count; a revoked grant is said on the card, no more calls go
// to Google, and the last busy time is let go after Keep; disconnecting
// revokes at Google and drops the busy time.
func TestGoogle_TheButtonToBusyTimes(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		o := setup(t, e)
		// A round of reads, as the schedule runs them; the owner signs in again (sessions are short).
		tick := func() { due(t, e); o.c.Login("dona@example.com", "segredo1") }
		var list struct{ Google bool }
		o.c.Do("GET", "/api/calendars", nil).JSON(t, &list)
		if !list.Google {
			t.Fatal("the card does not offer Google with the client configured")
		}
		g.AddEvent(primaryCal, gcaltest.Event{ID: "ev1", Summary: "Dentista", Start: sp(t, "2026-12-02 14:00"), End: sp(t, "2026-12-02 15:00")})
		g.AddEvent(primaryCal, gcaltest.Event{ID: "ev2", Summary: "Livre", Start: sp(t, "2026-12-02 10:00"), End: sp(t, "2026-12-02 11:00"), Transparent: true})
		g.AddEvent(officeCal, gcaltest.Event{ID: "ev3", Summary: "Reunião", Start: sp(t, "2026-12-03 10:00"), End: sp(t, "2026-12-03 11:00")})

		r := o.finishGoogle(o.pressGoogle(t, e, g))
		if r.StatusCode != 200 || strings.Contains(string(r.Body), "1//") {
			t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
		}
		var src struct{ Kind, Host string }
		r.JSON(t, &src)
		if src.Kind != calendars.KindGoogle || src.Host != primaryCal {
			t.Fatalf("connected: %+v", src)
		}
		read(t, e)
		if s := o.source(t); s.Events != 1 || s.LastReadAt == nil || s.LastError != "" {
			t.Fatalf("after the first read: %+v", s)
		}
		offered(t, o, e, "2026-12-02", []string{"13:30", "14:00", "14:30"}, []string{"10:00", "13:00", "15:00"})
		offered(t, o, e, "2026-12-03", nil, []string{"10:00"}) // not a chosen calendar

		// The owner ticks the office calendar too.
		var acc calendars.GoogleAccount
		if r := o.c.Do("GET", "/api/calendars/"+o.pro+"/google", nil); r.StatusCode != 200 {
			t.Fatalf("calendars: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &acc)
		}
		if acc.Account != primaryCal || len(acc.Calendars) != 2 || !acc.Calendars[0].Busy || acc.Calendars[1].Busy {
			t.Fatalf("calendars: %+v", acc)
		}
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/google", map[string]any{"calendars": []string{primaryCal, "intrusa@gmail.com"}}); r.StatusCode != 400 {
			t.Fatalf("a calendar not the account's: %d %s", r.StatusCode, r.Body)
		}
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/google", map[string]any{"calendars": []string{primaryCal, officeCal}}); r.StatusCode != 200 {
			t.Fatalf("choose: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		offered(t, o, e, "2026-12-03", []string{"10:00"}, []string{"11:00"})

		// Nothing changed at Google: the sync tokens say so, no freeBusy.
		before := g.Requests()
		tick()
		if n := g.Requests() - before; n != 2 {
			t.Errorf("an unchanged account took %d requests (want the 2 changes lists)", n)
		}
		// A new event is read on the next round.
		g.AddEvent(primaryCal, gcaltest.Event{ID: "ev4", Start: sp(t, "2026-12-04 09:00"), End: sp(t, "2026-12-04 10:00")})
		tick()
		offered(t, o, e, "2026-12-04", []string{"09:00"}, []string{"10:00"})

		// Google's trouble passes: the card says so, the busy time stays.
		g.Fail(1, gcaltest.Failure{Status: 503, Reason: "backendError"})
		tick()
		if s := o.source(t); !strings.Contains(s.LastError, "tentamos de novo") || !s.Kept {
			t.Fatalf("temporary: %+v", s)
		}
		tick()
		if s := o.source(t); s.LastError != "" {
			t.Fatalf("after the trouble: %+v", s)
		}

		// The owner removes Agendei's access in their Google account.
		g.RevokeAll()
		tick()
		if s := o.source(t); s.LastError != calendars.RefusedGoogle || !s.Kept {
			t.Fatalf("revoked: %+v", s)
		}
		offered(t, o, e, "2026-12-02", []string{"14:00"}, nil) // kept, by the owner's choice
		before = g.Requests()
		tick()
		if g.Requests() != before {
			t.Error("a refused grant still calls Google")
		}
		e.Clock.Advance(calendars.Keep)
		tick()
		offered(t, o, e, "2026-12-02", nil, []string{"14:00"})
		if r := o.c.Do("GET", "/api/calendars/"+o.pro+"/google", nil); r.StatusCode != 409 || !strings.Contains(string(r.Body), "conecte de novo") {
			t.Fatalf("calendars of a refused grant: %d %s", r.StatusCode, r.Body)
		}

		// Connected again: read again, with the owner's choice of calendars kept.
		if r := o.finishGoogle(o.pressGoogle(t, e, g)); r.StatusCode != 200 {
			t.Fatalf("again: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		if s := o.source(t); s.LastError != "" || s.Events != 3 {
			t.Fatalf("connected again: %+v", s)
		}
		offered(t, o, e, "2026-12-03", []string{"10:00"}, nil)

		// Disconnect: revoked at Google, the row and its busy time gone.
		before = g.Requests()
		if r := o.c.Do("DELETE", "/api/calendars/"+o.pro+"/google", nil); r.StatusCode != 204 {
			t.Fatalf("disconnect: %d %s", r.StatusCode, r.Body)
		}
		if g.Requests() != before+1 {
			t.Error("disconnect did not revoke at Google")
		}
		var after struct{ Calendars []any }
		o.c.Do("GET", "/api/calendars", nil).JSON(t, &after)
		if len(after.Calendars) != 0 {
			t.Fatalf("after disconnect: %+v", after)
		}
		offered(t, o, e, "2026-12-02", nil, []string{"14:00"})
		offered(t, o, e, "2026-12-03", nil, []string{"10:00"})
	})
}

// A refused consent, a partial grant, a state used twice or another
// owner's: each a clear 400 in pt-BR, nothing connected.
func TestGoogle_RefusedConsentAndPartialGrant(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		o := setup(t, e)
		g.Deny = true
		r := o.finishGoogle(o.pressGoogle(t, e, g))
		if r.StatusCode != 400 || !strings.Contains(string(r.Body), "google_oauth_denied") || !strings.Contains(string(r.Body), "não foi autorizada") {
			t.Fatalf("denied: %d %s", r.StatusCode, r.Body)
		}
		g.Deny = false
		g.Grant = []string{"https://www.googleapis.com/auth/calendar.calendarlist.readonly", "https://www.googleapis.com/auth/calendar.events"}
		r = o.finishGoogle(o.pressGoogle(t, e, g))
		if r.StatusCode != 400 || !strings.Contains(string(r.Body), "google_oauth_partial") {
			t.Fatalf("partial: %d %s", r.StatusCode, r.Body)
		}
		g.Grant = nil
		q := o.pressGoogle(t, e, g)
		// Another owner cannot finish this owner's start.
		other := e.Client()
		other.Signup("Outra", "outra@example.com", "segredo1", "gato")
		if r := other.Do("POST", "/api/calendars/google/finish", map[string]string{"code": q.Get("code"), "state": q.Get("state")}); r.StatusCode != 400 {
			t.Fatalf("another owner's state: %d %s", r.StatusCode, r.Body)
		}
		if r := o.finishGoogle(q); r.StatusCode != 200 {
			t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
		}
		if r := o.finishGoogle(q); r.StatusCode != 400 || !strings.Contains(string(r.Body), "google_oauth_state") {
			t.Fatalf("used twice: %d %s", r.StatusCode, r.Body)
		}
		// A state older than ten minutes is refused.
		q = o.pressGoogle(t, e, g)
		e.Clock.Advance(calendars.GoogleStateLife + time.Second)
		if r := o.finishGoogle(q); r.StatusCode != 400 || !strings.Contains(string(r.Body), "google_oauth_state") {
			t.Fatalf("expired: %d %s", r.StatusCode, r.Body)
		}
	})
}

// Without the operator's client, no button and no route that works.
func TestGoogle_OffWithoutTheClient(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		o := setup(t, e)
		var list struct{ Google bool }
		o.c.Do("GET", "/api/calendars", nil).JSON(t, &list)
		if list.Google {
			t.Fatal("Google offered without a client")
		}
		if r := o.c.Do("POST", "/api/calendars/"+o.pro+"/google", nil); r.StatusCode != 404 || !strings.Contains(string(r.Body), "google_off") {
			t.Fatalf("start: %d %s", r.StatusCode, r.Body)
		}
	})
}

// Another owner reaches nothing of the first owner's Google account with
// the professional's id: each route 404, the account and its busy time intact.
func TestGoogle_AnotherOwnerReachesNothing(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		o := setup(t, e)
		g.AddEvent(primaryCal, gcaltest.Event{ID: "ev1", Start: sp(t, "2026-12-02 14:00"), End: sp(t, "2026-12-02 15:00")})
		if r := o.finishGoogle(o.pressGoogle(t, e, g)); r.StatusCode != 200 {
			t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		other := e.Client()
		other.Signup("Outra", "outra@example.com", "segredo1", "gato")
		for _, c := range []struct {
			method string
			body   any
		}{{"POST", nil}, {"GET", nil}, {"PUT", map[string]any{"calendars": []string{officeCal}}}, {"DELETE", nil}} {
			r := other.Do(c.method, "/api/calendars/"+o.pro+"/google", c.body)
			if r.StatusCode != 404 || strings.Contains(string(r.Body), primaryCal) {
				t.Errorf("%s as another owner: %d %s", c.method, r.StatusCode, r.Body)
			}
		}
		if s := o.source(t); s.Host != primaryCal || s.Events != 1 || s.LastError != "" {
			t.Fatalf("the first owner's account: %+v", s)
		}
		offered(t, o, e, "2026-12-02", []string{"14:00"}, nil)
	})
}

// With a public HTTPS base URL each chosen calendar is watched; Google's
// notice with the channel's token queues a read at once (no waiting for the
// next round), one without it is refused; disconnecting stops the channels.
func TestGoogle_PushNoticesQueueARead(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		// The server under test listens on loopback: pose as the public address Google would post to.
		e.Server.Calendars.Google.Webhook = "https://agenda.example.com.br/webhooks/google"
		o := setup(t, e)
		if r := o.finishGoogle(o.pressGoogle(t, e, g)); r.StatusCode != 200 {
			t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		chs := g.Channels()
		if len(chs) != 1 || chs[0].Calendar != primaryCal || chs[0].Address != "https://agenda.example.com.br/webhooks/google" || chs[0].Token == "" {
			t.Fatalf("channels: %+v", chs)
		}
		// A round later the live channel is not asked for again.
		due(t, e)
		if n := len(g.Channels()); n != 1 {
			t.Fatalf("%d channels after a round", n)
		}
		g.AddEvent(primaryCal, gcaltest.Event{ID: "ev1", Start: sp(t, "2026-12-02 14:00"), End: sp(t, "2026-12-02 15:00")})
		notice := func(token, state string) *servertest.Response {
			c := e.Client()
			c.NoCSRF = true
			c.Headers = map[string]string{"X-Goog-Channel-ID": chs[0].ID, "X-Goog-Channel-Token": token, "X-Goog-Resource-State": state, "X-Goog-Resource-ID": chs[0].ResourceID}
			return c.Do("POST", "/webhooks/google", nil)
		}
		if r := notice("not-the-token", "exists"); r.StatusCode != 401 {
			t.Fatalf("a forged notice: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		offered(t, o, e, "2026-12-02", nil, []string{"14:00"}) // nothing read for it
		if r := notice(chs[0].Token, "exists"); r.StatusCode != 200 {
			t.Fatalf("notice: %d %s", r.StatusCode, r.Body)
		}
		read(t, e) // no clock moved: the notice queued the read
		offered(t, o, e, "2026-12-02", []string{"14:00"}, []string{"13:00", "15:00"})

		if r := o.c.Do("DELETE", "/api/calendars/"+o.pro+"/google", nil); r.StatusCode != 204 {
			t.Fatalf("disconnect: %d %s", r.StatusCode, r.Body)
		}
		if chs := g.Channels(); !chs[0].Stopped {
			t.Fatalf("the channel was not stopped: %+v", chs)
		}
		if r := notice(chs[0].Token, "exists"); r.StatusCode != 200 {
			t.Fatalf("a notice of a gone account: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestPushAddress(t *testing.T) {
	for base, want := range map[string]string{
		"https://agenda.example.com.br":  "https://agenda.example.com.br/webhooks/google",
		"https://agenda.example.com.br/": "https://agenda.example.com.br/webhooks/google",
		"http://agenda.example.com.br":   "",
		"https://localhost:8443":         "",
		"https://127.0.0.1":              "",
		"https://192.168.0.10":           "",
	} {
		if got := calendars.PushAddress(base); got != want {
			t.Errorf("PushAddress(%q) = %q, want %q", base, got, want)
		}
	}
}

// Google unreachable: the card says so and nothing is logged that names
// the account's calendars (their ids are e-mails).
func TestGoogle_UnreachableLogsNoAccount(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			g := gcaltest.New(googleClient, googleSecret, "")
			var logs strings.Builder
			var mu sync.Mutex
			e := servertest.StartWith(t, dialect, func(c *config.Config) {
				ep := g.Endpoints()
				c.GoogleClientID, c.GoogleClientSecret = googleClient, googleSecret
				c.GoogleAuthURL, c.GoogleTokenURL, c.GoogleRevokeURL, c.GoogleAPIURL = ep.AuthURL, ep.TokenURL, ep.RevokeURL, ep.API
			})
			g.RedirectURI = e.HTTP.URL + "/profile/google"
			g.AddCalendar(primaryCal, "Dona", "owner", true)
			g.AddEvent(primaryCal, gcaltest.Event{ID: "ev1", Start: sp(t, "2026-12-02 14:00"), End: sp(t, "2026-12-02 15:00")})
			e.Server.Calendars.Log = slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil))
			o := setup(t, e)
			if r := o.finishGoogle(o.pressGoogle(t, e, g)); r.StatusCode != 200 {
				t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
			}
			read(t, e)
			g.Close() // Google gone
			tick := func() { due(t, e); o.c.Login("dona@example.com", "segredo1") }
			tick()
			if s := o.source(t); s.LastError != "não foi possível falar com o Google" || !s.Kept {
				t.Fatalf("unreachable: %+v", s)
			}
			mu.Lock()
			defer mu.Unlock()
			if !strings.Contains(logs.String(), "google changes failed") || strings.Contains(logs.String(), "dona") {
				t.Fatalf("logs: %s", logs.String())
			}
		})
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

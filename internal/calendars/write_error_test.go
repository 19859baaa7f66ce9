package calendars_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/caldav/radicale"
	"github.com/agendei/agendei/internal/platform/gcal/gcaltest"
	"github.com/agendei/agendei/internal/server/servertest"
)

type writeError struct {
	At      time.Time
	Message string
}

// writeErrorOf is the professional's source's last write failure, as the card gets it.
func (o *owner) writeErrorOf(t *testing.T, kind string) *writeError {
	t.Helper()
	var out struct {
		Calendars []struct {
			Kind       string
			WriteError *writeError
		}
	}
	r := o.c.Do("GET", "/api/calendars", nil)
	if r.StatusCode != 200 {
		t.Fatalf("calendars: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	for _, c := range out.Calendars {
		if c.Kind == kind {
			return c.WriteError
		}
	}
	t.Fatalf("no %s source: %s", kind, r.Body)
	return nil
}

// A failed write into Google is on the source — when, and why in pt-BR,
// without the client's name — until the next write works; a revoked grant
// says so there too.
func TestGoogle_WriteFailureIsOnTheCardUntilOneWorks(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		o := setup(t, e)
		o.connectGoogleWriting(t, e, g)
		if w := o.writeErrorOf(t, "google"); w != nil {
			t.Fatalf("before any write: %+v", w)
		}
		g.Fail(1, gcaltest.Failure{Status: 503, Reason: "backendError"})
		o.book(t, e, "2026-12-02", "10:00", "Maria Silva")
		at := e.Clock.Now()
		drain(t, e)
		w := o.writeErrorOf(t, "google")
		if w == nil || w.At.Sub(at).Abs() > time.Second || w.Message != "o Google não respondeu agora; tentamos de novo em instantes" {
			t.Fatalf("after a failed write: %+v (at %s)", w, at)
		}
		e.Clock.Advance(31 * time.Second)
		drain(t, e)
		if w := o.writeErrorOf(t, "google"); w != nil || len(live(g, officeCal)) != 1 {
			t.Fatalf("after a write that worked: %+v", w)
		}

		// The account cannot write there any more (shared read-only now).
		g.Fail(1, gcaltest.Failure{Status: 403, Reason: "requiredAccessLevel"})
		o.book(t, e, "2026-12-03", "10:00", "Joana Prado")
		drain(t, e)
		if w := o.writeErrorOf(t, "google"); w == nil || !strings.Contains(w.Message, "não pode mais gravar nessa agenda") {
			t.Fatalf("a calendar not writable: %+v", w)
		}
		if s := o.source(t); s.LastError != "" {
			t.Fatalf("a calendar not writable is not a refused grant: %+v", s)
		}

		g.RevokeAll()
		e.Clock.Advance(time.Minute)
		drain(t, e)
		o.c.Login("dona@example.com", "segredo1")
		if w := o.writeErrorOf(t, "google"); w == nil || w.Message != "o Google recusou o acesso à agenda: conecte de novo" || strings.Contains(w.Message, "Joana") {
			t.Fatalf("revoked: %+v", w)
		}
	})
}

// A write the CalDAV server refuses is said on the CalDAV card the same way.
func TestCalDAV_WriteFailureIsOnTheCard(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rad := radicale.Start(t)
		personal := rad.Calendar(t, "pessoal", "Pessoal")
		written := rad.Calendar(t, "agendei", "Consultório")
		o := setup(t, e)
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/caldav", map[string]any{"url": rad.URL, "user": rad.User, "password": rad.Password,
			"calendars": []string{personal}, "writeCalendar": written}); r.StatusCode != 200 {
			t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
		}
		removeCollection(t, rad, written)
		o.book(t, e, "2026-12-02", "10:00", "Maria Silva")
		drain(t, e)
		w := o.writeErrorOf(t, "caldav")
		if w == nil || !strings.Contains(w.Message, "a agenda escolhida não foi encontrada no servidor") || strings.Contains(w.Message, "Maria") || strings.Contains(w.Message, rad.User) {
			t.Fatalf("after a refused write: %+v", w)
		}
		rad.Calendar(t, "agendei", "Consultório")
		e.Clock.Advance(31 * time.Second)
		drain(t, e)
		if w := o.writeErrorOf(t, "caldav"); w != nil || rad.Objects(t, written) != 1 {
			t.Fatalf("after a write that worked: %+v", w)
		}
	})
}

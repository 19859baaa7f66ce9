package gcal_test

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/gcal"
	"github.com/agendei/agendei/internal/platform/gcal/gcaltest"
)

const redirect = "https://agendei.example/profile/google"

func setup(t *testing.T) (*gcaltest.Google, *gcal.App) {
	t.Helper()
	g := gcaltest.New("123-abc.apps.googleusercontent.com", "GOCSPX-secret", redirect)
	t.Cleanup(g.Close)
	g.AddCalendar("ana@gmail.com", "Ana", "owner", true)
	g.AddCalendar("escola@group.calendar.google.com", "Escola", "reader", false)
	return g, &gcal.App{ClientID: g.ClientID, ClientSecret: g.ClientSecret, RedirectURI: redirect, Endpoints: g.Endpoints()}
}

// connect runs the owner's "Conectar Google Agenda": the consent page, then the code's exchange.
func connect(t *testing.T, g *gcaltest.Google, app *gcal.App) gcal.Token {
	t.Helper()
	verifier := gcal.Verifier()
	back, err := g.Approve(app.AuthCodeURL("estado-1", verifier))
	if err != nil {
		t.Fatal(err)
	}
	if back.Query().Get("state") != "estado-1" || back.Query().Get("code") == "" {
		t.Fatalf("back from the consent page: %s", back)
	}
	tok, err := app.Exchange(context.Background(), back.Query().Get("code"), verifier, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestGoogle_FromTheButtonToBusyTimesAndWrittenEvents(t *testing.T) {
	ctx := context.Background()
	g, app := setup(t)
	tok := connect(t, g, app)
	if tok.Access == "" || tok.Refresh == "" || len(tok.Missing()) != 0 {
		t.Fatalf("token: %+v missing %v", tok, tok.Missing())
	}

	cals, err := app.Calendars(ctx, tok.Access)
	if err != nil || len(cals) != 2 || !cals[0].Primary || !cals[0].Writable() || cals[1].Writable() {
		t.Fatalf("calendars: %+v %v", cals, err)
	}

	// The owner's dentist, a free (transparent) reminder, and a cancelled meeting.
	day := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "dentista01", Summary: "Dentista", Start: day.Add(17 * time.Hour), End: day.Add(18 * time.Hour)})
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "lembrete01", Start: day.Add(12 * time.Hour), End: day.Add(13 * time.Hour), Transparent: true})
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "reuniao001", Start: day.Add(20 * time.Hour), End: day.Add(21 * time.Hour), Cancelled: true})
	busy, failed, err := app.FreeBusy(ctx, tok.Access, []string{"ana@gmail.com", "sumiu@group.calendar.google.com"}, day, day.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if b := busy["ana@gmail.com"]; len(b) != 1 || !b[0].Start.Equal(day.Add(17*time.Hour)) || !b[0].End.Equal(day.Add(18*time.Hour)) {
		t.Fatalf("busy: %+v", busy)
	}
	if failed["sumiu@group.calendar.google.com"] != "notFound" {
		t.Fatalf("a calendar Google cannot read: %v", failed)
	}

	// The sync token says whether anything changed.
	changed, sync, err := app.Changes(ctx, tok.Access, "ana@gmail.com", "")
	if err != nil || !changed || sync == "" {
		t.Fatalf("first sync: %v %q %v", changed, sync, err)
	}
	if changed, next, err := app.Changes(ctx, tok.Access, "ana@gmail.com", sync); err != nil || changed {
		t.Fatalf("nothing new: %v %v", changed, err)
	} else {
		sync = next
	}

	// An appointment written twice is one event; moved, it is patched; cancelled, deleted once.
	appt := "3f9a2c4e-8b1d-4e6f-9a0b-1c2d3e4f5a6b"
	id := gcal.EventID(appt)
	if !regexp.MustCompile(`^[a-v0-9]{26}$`).MatchString(id) || gcal.EventID(appt) != id {
		t.Fatalf("event id %q", id)
	}
	e := gcal.Event{ID: id, Summary: "Psicoterapia — Ana", Location: "Rua Augusta, 100", Start: day.Add(14 * time.Hour), End: day.Add(14*time.Hour + 50*time.Minute), Zone: "America/Sao_Paulo"}
	for range 2 {
		if err := app.PutEvent(ctx, tok.Access, "ana@gmail.com", e); err != nil {
			t.Fatal(err)
		}
	}
	if evs := g.Events("ana@gmail.com"); len(evs) != 4 || evs[id].Summary != "Psicoterapia — Ana" || evs[id].Zone != "America/Sao_Paulo" {
		t.Fatalf("written: %+v", evs[id])
	}
	if changed, _, err := app.Changes(ctx, tok.Access, "ana@gmail.com", sync); err != nil || !changed {
		t.Fatalf("after a write, changed: %v %v", changed, err)
	}
	e.Start, e.End = e.Start.Add(2*time.Hour), e.End.Add(2*time.Hour)
	if err := app.PutEvent(ctx, tok.Access, "ana@gmail.com", e); err != nil {
		t.Fatal(err)
	}
	if got := g.Events("ana@gmail.com")[id]; !got.Start.Equal(day.Add(16 * time.Hour)) {
		t.Fatalf("moved: %+v", got)
	}
	for range 2 {
		if err := app.DeleteEvent(ctx, tok.Access, "ana@gmail.com", id); err != nil {
			t.Fatalf("delete (again): %v", err)
		}
	}
	if !g.Events("ana@gmail.com")[id].Cancelled {
		t.Fatal("the cancelled appointment is still in the calendar")
	}
	// Booked again after a cancellation: the same id comes back (Google keeps deleted ids).
	if err := app.PutEvent(ctx, tok.Access, "ana@gmail.com", e); err != nil || g.Events("ana@gmail.com")[id].Cancelled {
		t.Fatalf("written again after a delete: %v", err)
	}
	// A calendar the owner may only read is not written to.
	if err := app.PutEvent(ctx, tok.Access, "escola@group.calendar.google.com", e); err == nil || gcal.Reason(err) != "requiredAccessLevel" {
		t.Fatalf("a read-only calendar: %v", err)
	}

	// Push notices only to public HTTPS.
	if _, err := app.Watch(ctx, tok.Access, "ana@gmail.com", "http://localhost:8080/webhooks/google", gcal.Channel{ID: "c1", Token: "t1"}); gcal.Reason(err) != "push.webhookUrlNotHttps" {
		t.Fatalf("watch over http: %v", err)
	}
	ch, err := app.Watch(ctx, tok.Access, "ana@gmail.com", "https://agendei.example/webhooks/google", gcal.Channel{ID: "c2", Token: "t2"})
	if err != nil || ch.ResourceID == "" || ch.Expiration.Before(time.Now()) {
		t.Fatalf("watch: %+v %v", ch, err)
	}
	for range 2 {
		if err := app.StopWatch(ctx, tok.Access, ch); err != nil {
			t.Fatal(err)
		}
	}
	if p := g.Problems(); len(p) != 0 {
		t.Fatalf("requests Google would refuse: %v", p)
	}
}

func TestGoogle_ARevokedGrantIsAuth(t *testing.T) {
	ctx := context.Background()
	g, app := setup(t)
	tok := connect(t, g, app)
	renewed, err := app.Refresh(ctx, tok.Refresh, time.Now())
	if err != nil || renewed.Access == "" || renewed.Refresh != tok.Refresh {
		t.Fatalf("refresh: %+v %v", renewed, err)
	}
	g.RevokeAll() // the owner removes Agendei in their Google account
	_, err = app.Refresh(ctx, tok.Refresh, time.Now())
	var e *gcal.Error
	if !errors.As(err, &e) || !e.Auth() || e.Temporary() || e.Reason != "invalid_grant" {
		t.Fatalf("refresh of a revoked grant: %v", err)
	}
	if _, err := app.Calendars(ctx, renewed.Access); !errors.As(err, &e) || !e.Auth() || e.Status != http.StatusUnauthorized {
		t.Fatalf("a revoked grant's access token: %v", err)
	}
	if err := app.Revoke(ctx, tok.Refresh); err != nil {
		t.Fatalf("revoking what is already revoked: %v", err)
	}
}

func TestGoogle_TheExchangeRefusesWhatGoogleRefuses(t *testing.T) {
	ctx := context.Background()
	g, app := setup(t)
	verifier := gcal.Verifier()
	back, err := g.Approve(app.AuthCodeURL("s", verifier))
	if err != nil {
		t.Fatal(err)
	}
	code := back.Query().Get("code")
	if _, err := app.Exchange(ctx, code, gcal.Verifier(), time.Now()); gcal.Reason(err) != "invalid_grant" {
		t.Fatalf("another verifier: %v", err)
	}
	if _, err := app.Exchange(ctx, code, verifier, time.Now()); err != nil {
		t.Fatalf("the right verifier: %v", err)
	}
	if _, err := app.Exchange(ctx, code, verifier, time.Now()); gcal.Reason(err) != "invalid_grant" {
		t.Fatalf("a code used twice: %v", err)
	}
	wrong := *app
	wrong.ClientSecret = "outro"
	if _, err := wrong.Refresh(ctx, "1//x", time.Now()); gcal.Reason(err) != "invalid_client" {
		t.Fatalf("a wrong client secret: %v", err)
	}

	// The owner unticks the write scope: the grant says what is missing.
	g.Grant = []string{gcal.Scopes[0], gcal.Scopes[1]}
	v2 := gcal.Verifier()
	back, _ = g.Approve(app.AuthCodeURL("s2", v2))
	tok, err := app.Exchange(ctx, back.Query().Get("code"), v2, time.Now())
	if err != nil || len(tok.Missing()) != 1 || tok.Missing()[0] != gcal.Scopes[2] {
		t.Fatalf("a partial grant: %+v %v", tok, err)
	}
	err = app.PutEvent(ctx, tok.Access, "ana@gmail.com", gcal.Event{ID: gcal.EventID("x"), Start: time.Now(), End: time.Now().Add(time.Hour)})
	var e *gcal.Error
	if !errors.As(err, &e) || !e.Auth() || e.Reason != "insufficientPermissions" {
		t.Fatalf("writing without the scope: %v", err)
	}

	// The owner refuses at the consent page.
	g.Deny = true
	back, _ = g.Approve(app.AuthCodeURL("s3", gcal.Verifier()))
	if back.Query().Get("error") != "access_denied" || back.Query().Get("state") != "s3" {
		t.Fatalf("denied: %s", back)
	}
}

func TestGoogle_AnExpiredSyncTokenAsksForAFullRead(t *testing.T) {
	ctx := context.Background()
	g, app := setup(t)
	tok := connect(t, g, app)
	_, sync, err := app.Changes(ctx, tok.Access, "ana@gmail.com", "")
	if err != nil {
		t.Fatal(err)
	}
	g.ExpireSyncTokens()
	if _, _, err := app.Changes(ctx, tok.Access, "ana@gmail.com", sync); !errors.Is(err, gcal.ErrFullSync) {
		t.Fatalf("expired sync token: %v", err)
	}
	g.Fail(1, gcaltest.Failure{Status: http.StatusForbidden, Reason: "rateLimitExceeded"})
	_, _, err = app.FreeBusy(ctx, tok.Access, []string{"ana@gmail.com"}, time.Now(), time.Now().Add(time.Hour))
	var e *gcal.Error
	if !errors.As(err, &e) || !e.Temporary() || e.Auth() {
		t.Fatalf("throttled: %v", err)
	}
}

// BusyEvents answers what freeBusy answers — the events that take time in the range — with their ids, so Agendei's
// own written events can be told apart; the range's bounds are exclusive as Google's are.
func TestGoogle_BusyEventsAreFreeBusyWithIDs(t *testing.T) {
	ctx := context.Background()
	g, app := setup(t)
	tok := connect(t, g, app)
	day := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "dentista01", Start: day.Add(17 * time.Hour), End: day.Add(18 * time.Hour)})
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "lembrete01", Start: day.Add(12 * time.Hour), End: day.Add(13 * time.Hour), Transparent: true})
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "reuniao001", Start: day.Add(20 * time.Hour), End: day.Add(21 * time.Hour), Cancelled: true})
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "ontem00001", Start: day.Add(-2 * time.Hour), End: day})                     // ends at the range's start
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "amanha0001", Start: day.Add(24 * time.Hour), End: day.Add(25 * time.Hour)}) // starts at its end
	g.AddEvent("ana@gmail.com", gcaltest.Event{ID: "plantao001", Start: day.Add(-3 * time.Hour), End: day.Add(2 * time.Hour)})  // crosses its start
	own := gcal.Event{ID: gcal.EventID("3f9a2c4e-8b1d-4e6f-9a0b-1c2d3e4f5a6b"), Summary: "Sessão — Ana", Start: day.Add(14 * time.Hour), End: day.Add(15 * time.Hour), Zone: "America/Sao_Paulo"}
	if err := app.PutEvent(ctx, tok.Access, "ana@gmail.com", own); err != nil {
		t.Fatal(err)
	}
	got, err := app.BusyEvents(ctx, tok.Access, "ana@gmail.com", day, day.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]gcal.BusyEvent{}
	for _, e := range got {
		ids[e.ID] = e
	}
	if len(got) != 3 || !ids["dentista01"].Start.Equal(day.Add(17*time.Hour)) || !ids["plantao001"].End.Equal(day.Add(2*time.Hour)) || !ids[own.ID].Start.Equal(own.Start) {
		t.Fatalf("busy events: %+v", got)
	}
	if _, err := app.BusyEvents(ctx, tok.Access, "ana@gmail.com", day, day); gcal.Reason(err) != "timeRangeEmpty" {
		t.Fatalf("an empty range: %v", err)
	}
	if p := g.Problems(); len(p) != 0 {
		t.Fatalf("requests Google would refuse: %v", p)
	}
}

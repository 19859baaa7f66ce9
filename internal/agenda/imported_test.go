package agenda_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/versions"
	"github.com/agendei/agendei/internal/server/servertest"
)

var saoPaulo, _ = time.LoadLocation("America/Sao_Paulo")

func at(date, hhmm string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", date+" "+hhmm, saoPaulo)
	if err != nil {
		panic(err)
	}
	return t
}

func (s *shop) importBusy(t *testing.T, e *servertest.Env, items ...booking.Interval) booking.Imported {
	t.Helper()
	out, err := e.Server.Booking.ImportBusy(context.Background(), s.ownerID, s.pro, "ics", items)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func flagged(t *testing.T, e *servertest.Env, id string) bool {
	t.Helper()
	var n int
	if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM busy_flags WHERE appointment_id = ?`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// Busy time imported from the professional's own calendar is busy for a
// client like a block (public times, the public booking), while the owner
// is asked first and may book over it with a yes; an import that finds
// the same intervals writes nothing, so the data version stays.
func TestImportedBusy_ClosesPublicTimesAndAsksTheOwner(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		before := publicTimes(t, e, s, "2026-11-25")
		if !slices.Contains(before, "10:00") || !slices.Contains(before, "11:00") {
			t.Fatalf("before: %v", before)
		}
		dentist := booking.Interval{UID: "dentista@google.com", Start: at("2026-11-25", "10:15"), End: at("2026-11-25", "11:00")}
		if got := s.importBusy(t, e, dentist); !got.Changed || len(got.Flagged) != 0 {
			t.Fatalf("first import: %+v", got)
		}
		after := publicTimes(t, e, s, "2026-11-25")
		for _, hhmm := range []string{"09:30", "10:00", "10:30"} {
			if slices.Contains(after, hhmm) {
				t.Fatalf("%s still offered: %v", hhmm, after)
			}
		}
		if !slices.Contains(after, "09:00") || !slices.Contains(after, "11:00") {
			t.Fatalf("times beside the event went too: %v", after)
		}
		if r := s.publicBook(e, "dona", "10.9.0.1", "2026-11-25", "10:00"); r.StatusCode != 409 {
			t.Fatalf("public booking over it: %d %s", r.StatusCode, r.Body)
		}
		v1, _ := versions.Of(context.Background(), e.DB, s.ownerID)
		if got := s.importBusy(t, e, dentist); got.Changed || len(got.Flagged) != 0 {
			t.Fatalf("the same import again: %+v", got)
		}
		if v2, _ := versions.Of(context.Background(), e.DB, s.ownerID); v2 != v1 {
			t.Fatalf("an unchanged import bumped the version %d → %d", v1, v2)
		}
		// The event gone: the time is offered again.
		if got := s.importBusy(t, e); !got.Changed {
			t.Fatalf("emptying: %+v", got)
		}
		if again := publicTimes(t, e, s, "2026-11-25"); !slices.Contains(again, "10:30") {
			t.Fatalf("after the event went: %v", again)
		}
		s.importBusy(t, e, dentist)
		r := s.create(map[string]any{"date": "2026-11-25", "time": "10:00"})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "personal_busy" {
			t.Fatalf("owner without a yes: %d %s", r.StatusCode, r.Body)
		}
		if r := s.create(map[string]any{"date": "2026-11-25", "time": "10:00", "overPersonal": true}); r.StatusCode != 201 {
			t.Fatalf("owner with a yes: %d %s", r.StatusCode, r.Body)
		}

	})
}

// An event that appears over an appointment already held is told to the
// owner once: a bell notification naming the appointment's time, never the
// event's title.
func TestImportedBusy_FlagsAnAppointmentUnderItOnce(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id := bookedID(t, s.publicBook(e, "dona", "10.9.1.1", "2026-11-26", "14:00"))
		shift := booking.Interval{UID: "plantao", Start: at("2026-11-26", "13:30"), End: at("2026-11-26", "14:30"), Title: "Plantão no hospital"}
		got := s.importBusy(t, e, shift)
		if !slices.Equal(got.Flagged, []string{id}) || !flagged(t, e, id) {
			t.Fatalf("import over an appointment: %+v", got)
		}
		longer := shift
		longer.End = at("2026-11-26", "16:00")
		if got := s.importBusy(t, e, longer); !got.Changed || len(got.Flagged) != 0 {
			t.Fatalf("told twice: %+v", got)
		}
		var title, desc string
		err := e.DB.QueryRowContext(context.Background(), `SELECT title, description FROM notifications WHERE user_id = ? AND appointment_id = ? AND title LIKE 'Conflito%'`,
			s.ownerID, id).Scan(&title, &desc)
		if err != nil {
			t.Fatal(err)
		}
		if want := "Um compromisso da sua agenda pessoal coincide com o agendamento de Cliente em 26/11/2026 às 14:00. Remarque ou confirme com o cliente."; desc != want {
			t.Fatalf("notification: %q", desc)
		}
	})
}

// The owner's grid draws imported busy time in its professional's column,
// cut at midnight, with the event's title only when the import kept one
// (the owner turned titles on), and marks the appointment under it.
func TestImportedBusy_OnTheOwnersGridOnly(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id := bookedID(t, s.publicBook(e, "dona", "10.9.2.1", "2026-11-26", "09:00"))
		other := bookedID(t, s.publicBook(e, "dona", "10.9.2.2", "2026-11-26", "15:00"))
		s.importBusy(t, e,
			booking.Interval{UID: "a", Start: at("2026-11-26", "08:30"), End: at("2026-11-26", "09:30")},
			booking.Interval{UID: "b", Start: at("2026-11-26", "22:00"), End: at("2026-11-27", "01:00"), Title: "Plantão"})
		var g struct {
			Busy         []map[string]string
			Appointments []struct {
				ID           string
				PersonalBusy bool
			}
		}
		r := s.owner.Do("GET", "/api/agenda/grid?from=2026-11-26&to=2026-11-27", nil)
		if r.StatusCode != 200 {
			t.Fatalf("grid: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &g)
		want := []map[string]string{
			{"professionalId": s.pro, "date": "2026-11-26", "start": "08:30", "end": "09:30", "title": ""},
			{"professionalId": s.pro, "date": "2026-11-26", "start": "22:00", "end": "24:00", "title": "Plantão"},
			{"professionalId": s.pro, "date": "2026-11-27", "start": "00:00", "end": "01:00", "title": "Plantão"},
		}
		if fmt.Sprint(g.Busy) != fmt.Sprint(want) {
			t.Fatalf("busy: %v", g.Busy)
		}
		for _, a := range g.Appointments {
			if a.PersonalBusy != (a.ID == id) {
				t.Fatalf("mark: %+v (under it: %s, beside it: %s)", a, id, other)
			}
		}
		// Never on the public page: its times say only what is free.
		pub := e.Client().Do("GET", "/api/public/profiles/dona", nil)
		if strings.Contains(string(pub.Body), "Plantão") {
			t.Fatal("an event's title on the public page")
		}
	})
}

// Bookings racing an import that covers their time: none is accepted after
// the import committed over it, and every one accepted before it is
// flagged to the owner. Both take the owner's lock, then the
// professional's row.
func TestImportedBusy_BookingsRacingAnImportAreRefusedOrFlagged(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		for round := range 4 {
			date := fmt.Sprintf("2026-12-%02d", 1+round)
			day := booking.Interval{UID: fmt.Sprintf("congresso-%d", round), Start: at(date, "08:00"), End: at(date, "20:00")}
			var wg sync.WaitGroup
			start := make(chan struct{})
			accepted := make([]string, 8)
			for i := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					r := s.publicBook(e, "dona", fmt.Sprintf("10.7.%d.%d", round, i), date, fmt.Sprintf("%02d:00", 9+i))
					if r.StatusCode == 201 {
						accepted[i] = bookedID(t, r)
					} else if r.StatusCode != 409 {
						t.Errorf("booking: %d %s", r.StatusCode, r.Body)
					}
				}()
			}
			wg.Add(1)
			var imported booking.Imported
			go func() {
				defer wg.Done()
				<-start
				time.Sleep(time.Duration(round) * 5 * time.Millisecond)
				var err error
				if imported, err = e.Server.Booking.ImportBusy(context.Background(), s.ownerID, s.pro, "ics", []booking.Interval{day}); err != nil {
					t.Error(err)
				}
			}()
			close(start)
			wg.Wait()
			n := 0
			for _, id := range accepted {
				if id == "" {
					continue
				}
				n++
				if !flagged(t, e, id) || !slices.Contains(imported.Flagged, id) {
					t.Fatalf("round %d: booking %s accepted but not flagged (import %+v)", round, id, imported)
				}
			}
			if len(imported.Flagged) != n {
				t.Fatalf("round %d: %d accepted, %d flagged", round, n, len(imported.Flagged))
			}
			if r := s.publicBook(e, "dona", fmt.Sprintf("10.8.%d.1", round), date, "18:00"); r.StatusCode != 409 {
				t.Fatalf("round %d: a booking after the import: %d %s", round, r.StatusCode, r.Body)
			}
			t.Logf("round %d: %d of 8 accepted before the import", round, n)
		}
	})
}

// An import of thousands of intervals is written a few hundred rows a
// statement (issue 42): exactly the intervals given are kept, whatever
// side of a statement's bound each falls; a later import deletes, adds and
// changes exactly its difference (again across bounds), an unchanged one
// writes nothing and bumps no data version, and the public times see the
// last import.
func TestImportedBusy_ThousandsWrittenInBatchesKeepExactlyTheDifference(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "lote@example.com", "lote")
		ctx := context.Background()
		first := time.Date(2027, 1, 4, 0, 0, 0, 0, saoPaulo)
		mk := func(i int, minutes int) booking.Interval {
			start := first.Add(time.Duration(i) * 17 * time.Minute)
			return booking.Interval{UID: fmt.Sprintf("ev-%d@x", i/3), Start: start, End: start.Add(time.Duration(minutes) * time.Minute)}
		}
		var items []booking.Interval
		for i := range 1234 {
			items = append(items, mk(i, 10))
		}
		kept := func() map[string]time.Time {
			out := map[string]time.Time{}
			rows, err := e.DB.QueryContext(ctx, `SELECT uid, starts_at, ends_at FROM busy_imported WHERE professional_id = ? AND source = 'ics'`, s.pro)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var uid string
				var a, z time.Time
				if err := rows.Scan(&uid, &a, &z); err != nil {
					t.Fatal(err)
				}
				out[uid+" "+a.UTC().Format(time.RFC3339)] = z.UTC()
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			return out
		}
		same := func(want []booking.Interval) {
			t.Helper()
			got := kept()
			if len(got) != len(want) {
				t.Fatalf("kept %d intervals, want %d", len(got), len(want))
			}
			for _, it := range want {
				if z, ok := got[it.UID+" "+it.Start.UTC().Format(time.RFC3339)]; !ok || !z.Equal(it.End.UTC()) {
					t.Fatalf("%s at %s: kept %v (%v)", it.UID, it.Start, z, ok)
				}
			}
		}
		version := func() int64 {
			t.Helper()
			v, err := versions.Of(ctx, e.DB, s.ownerID)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		// Each import that writes moves the owner's data version (on
		// PostgreSQL once per statement, migration 00073), so the public
		// times follow it.
		bumps := func(what string, items []booking.Interval) {
			t.Helper()
			v := version()
			if got := s.importBusy(t, e, items...); !got.Changed {
				t.Fatalf("%s: %+v", what, got)
			}
			if version() <= v {
				t.Fatalf("%s left the data version at %d", what, v)
			}
		}
		bumps("first import", items)
		same(items)

		// 450 gone (more than two statements' worth), 300 new, 5 longer.
		next := slices.Clone(items[450:])
		for i := 1234; i < 1534; i++ {
			next = append(next, mk(i, 10))
		}
		for i := 0; i < 5; i++ {
			next[i].End = next[i].End.Add(time.Hour)
		}
		bumps("second import", next)
		same(next)
		longer := slices.Clone(next)
		longer[len(longer)-1].End = longer[len(longer)-1].End.Add(time.Minute)
		bumps("an interval longer (an update alone)", longer)
		same(longer)

		v1 := version()
		if got := s.importBusy(t, e, longer...); got.Changed {
			t.Fatalf("unchanged import: %+v", got)
		}
		if v2 := version(); v2 != v1 {
			t.Fatalf("an unchanged import bumped the version %d → %d", v1, v2)
		}
		bumps("emptying import", nil)
		same(nil)
	})
}

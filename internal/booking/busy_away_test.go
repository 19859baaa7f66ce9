package booking

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

// awaySetup is an owner's setup with pros professionals each importing
// events busy intervals (a third of them weekly instances of recurring
// events, as the bench's calendars), from the days ahead of start, plus a
// few that no date index may take whole: long absences, empty intervals.
func awaySetup(loc *time.Location, pros, events int, start time.Time, seed uint64) (*schedule.Setup, []string) {
	r := rand.New(rand.NewPCG(seed, 42))
	st := &schedule.Setup{Loc: loc}
	var ids []string
	for i := range pros {
		id := fmt.Sprintf("pro-%d", i)
		ids = append(ids, id)
		for k := 0; k < events; k++ {
			day := start.AddDate(0, 0, r.IntN(87))
			if k < events/3 {
				day = start.AddDate(0, 0, 7*(k%12))
			}
			at := day.Add(time.Duration(r.IntN(24*60)) * time.Minute)
			st.Away = append(st.Away, schedule.Away{ProfessionalID: id, Start: at, End: at.Add(time.Duration(15+r.IntN(600)) * time.Minute)})
		}
		at := start.AddDate(0, 0, r.IntN(30))
		st.Away = append(st.Away,
			schedule.Away{ProfessionalID: id, Start: at, End: at.AddDate(0, 0, 20)},          // a long absence
			schedule.Away{ProfessionalID: id, Start: at, End: at},                            // empty
			schedule.Away{ProfessionalID: id, Start: at, End: at.Add(-time.Hour)},            // backwards
			schedule.Away{ProfessionalID: "someone-else", Start: at, End: at.Add(time.Hour)}) // not asked for
	}
	return st, ids
}

// seen is the imported busy time a request sees of each date from
// before to to (each with its neighbours), in order.
func seen(b BusyDays, ids []string, from, to time.Time) map[string]map[int64][]slots.Busy {
	out := map[string]map[int64][]slots.Busy{}
	for _, id := range ids {
		m := map[int64][]slots.Busy{}
		for d := dayNumber(from) - 2; d <= dayNumber(to)+2; d++ {
			if v := sorted(b[id].appendAway(nil, d)); len(v) > 0 {
				m[d] = v
			}
		}
		out[id] = m
	}
	return out
}

func sorted(v []slots.Busy) []slots.Busy {
	v = slices.Clone(v)
	slices.SortFunc(v, func(a, b slots.Busy) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.Duration, b.Duration))
	})
	return v
}

// The imported busy time by date (decision 0010) puts under each date of a
// request exactly what walking every interval did — across midnight, a
// clock change, long absences and bad intervals — and what a request does
// with it never changes the setup's shared index.
func TestAddAwayDays_SameAsWalkingEveryInterval(t *testing.T) {
	for _, zone := range []string{"America/Sao_Paulo", "America/New_York", "Pacific/Chatham"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Date(2026, 10, 20, 0, 0, 0, 0, loc)
		st, ids := awaySetup(loc, 3, 300, start, 7)
		want := sortedIndex(st.AwayByDay())
		for _, days := range st.AwayByDay().Days {
			for d, v := range days {
				if cap(v) != len(v) {
					t.Fatalf("%s: the index's date %d has room to append into (%d of %d)", zone, d, len(v), cap(v))
				}
			}
		}
		for k := range 60 {
			from := time.Date(2026, 10, 18, 0, 0, 0, 0, time.UTC).AddDate(0, 0, k)
			for _, span := range []int{0, 2, 30} {
				to := from.AddDate(0, 0, span)
				walked, indexed := newBusyDays(ids), newBusyDays(ids)
				addAway(walked, st.Loc, st.Away, from, to)
				addAwayDays(indexed, st.AwayByDay(), st.Loc, from, to)
				w, g := seen(walked, ids, from, to), seen(indexed, ids, from, to)
				if fmt.Sprint(w) != fmt.Sprint(g) {
					t.Fatalf("%s %s+%d: walked %v\nindexed %v", zone, from.Format("2006-01-02"), span, w, g)
				}
				// A request's own additions (a hold's taken time, a copy by
				// Near) leave the shared index as it was.
				for _, id := range ids {
					indexed.Take(id, from, slots.Busy{Start: 1, Duration: 1})
					_ = append(indexed.Near(id, from), slots.Busy{Start: 2, Duration: 2})
					_ = append(indexed[id].appendAway(nil, dayNumber(to)), slots.Busy{Start: 3, Duration: 3})
					addAway(indexed, st.Loc, []schedule.Away{{ProfessionalID: id, Start: from, End: to.AddDate(0, 0, 1)}}, from, to)
				}
			}
		}
		if got := sortedIndex(st.AwayByDay()); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: a request changed the shared index", zone)
		}
		if len(st.AwayByDay().Long) != 3 {
			t.Fatalf("%s: long intervals %d, want 3 (one a professional)", zone, len(st.AwayByDay().Long))
		}
	}
}

func sortedIndex(ix *schedule.AwayDays) map[string]map[int64][]slots.Busy {
	out := map[string]map[int64][]slots.Busy{}
	for id, days := range ix.Days {
		out[id] = map[int64][]slots.Busy{}
		for d, v := range days {
			out[id][d] = sorted(v)
		}
	}
	return out
}

// BenchmarkPublicAway is the imported busy time's share of a public read
// of an owner whose 5 professionals import 500 events each (issue 42):
// free times (a date and its neighbours) and bookable days (a month), each
// walking every interval (AGENDEI_BENCH_DISABLE=away-days) and by date
// from the setup. The 5 professionals' busy days with no imports is the
// floor. Run: go test -run '^$' -bench PublicAway ./internal/booking/
func BenchmarkPublicAway(b *testing.B) {
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, loc)
	st, ids := awaySetup(loc, 5, 500, start, 1)
	st.AwayByDay()
	for _, span := range []struct {
		name       string
		before, to int
	}{{"free-times", slots.ReachDays, slots.ReachDays}, {"bookable-days", 0, 30}} {
		dates := func(i int) (time.Time, time.Time) {
			d := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%60)
			return d.AddDate(0, 0, -span.before), d.AddDate(0, 0, span.to)
		}
		b.Run(span.name+"/none", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				from, to := dates(i)
				out := newBusyDays(ids)
				addAway(out, st.Loc, nil, from, to)
			}
		})
		b.Run(span.name+"/walk", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				from, to := dates(i)
				out := newBusyDays(ids)
				addAway(out, st.Loc, st.Away, from, to)
			}
		})
		b.Run(span.name+"/by-day", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				from, to := dates(i)
				out := newBusyDays(ids)
				addAwayDays(out, st.AwayByDay(), st.Loc, from, to)
			}
		})
	}
}

// NearInto answers what Near does, date after date into one buffer, and
// never writes into what was read (a date with nothing to add is a
// sub-slice of it).
func TestNearInto_SameAsNearAndLeavesTheReadBusyTime(t *testing.T) {
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, loc)
	st, ids := awaySetup(loc, 2, 120, start, 3)
	from, to := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)
	b := newBusyDays(ids)
	for k := 0; k < 40; k += 3 { // appointments on some dates only
		d := from.AddDate(0, 0, k)
		b.fold(loc, []byte(ids[0]), []byte(d.Format("2006-01-02")), []byte("09:00 60 0 0,15:00 30 10 10"))
	}
	addBlocks(b, loc, []schedule.Blocked{{ProfessionalID: ids[1], Date: "2026-12-10", Start: "10:00", End: "12:00"}}, from, to)
	addAwayDays(b, st.AwayByDay(), st.Loc, from, to)
	read := slices.Clone(b[ids[0]].all)
	var buf []slots.Busy
	for _, id := range ids {
		for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
			if got, want := b.NearInto(&buf, id, d), b.Near(id, d); !slices.Equal(got, want) {
				t.Fatalf("%s %s: NearInto %v, Near %v", id, d.Format("2006-01-02"), got, want)
			}
		}
	}
	if !slices.Equal(b[ids[0]].all, read) {
		t.Fatal("NearInto wrote into the busy time as read")
	}
}

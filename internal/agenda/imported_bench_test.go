package agenda_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/server/servertest"
)

// BenchmarkPublicReads_ImportedBusy is issue 42's row in one process: free
// times and bookable days of a professional importing 500 busy events (a
// third of them weekly instances), against the same without imports, the
// setup cached; imports-walked is with the by-date index off,
// imports-copied with the bookable days' one buffer off (decision 0010). Run: go test -run '^$' -bench PublicReads_ImportedBusy ./internal/agenda/
func BenchmarkPublicReads_ImportedBusy(b *testing.B) {
	for _, dialect := range dbtest.Dialects(b) {
		e := servertest.Start(b, dialect)
		ctx := context.Background()
		plain := setup(b, e, "sem@example.com", "sem")
		busy := setup(b, e, "com@example.com", "com")
		var items []booking.Interval
		first := time.Date(2026, 11, 24, 0, 0, 0, 0, saoPaulo)
		for i := range 500 {
			day := first.AddDate(0, 0, (i*37)%87)
			if i < 500/3 {
				day = first.AddDate(0, 0, 7*(i%12))
			}
			start := day.Add(time.Duration(8*60+(i*53)%(11*60)) * time.Minute)
			items = append(items, booking.Interval{UID: fmt.Sprintf("ev-%d", i), Start: start, End: start.Add(time.Duration(30+(i*7)%120) * time.Minute)})
		}
		if _, err := e.Server.Booking.ImportBusy(ctx, busy.ownerID, busy.pro, "ics", items); err != nil {
			b.Fatal(err)
		}
		for _, s := range []struct {
			name string
			shop *shop
			user string
			walk bool // AGENDEI_BENCH_DISABLE=away-days: every interval walked per request
			copy bool // AGENDEI_BENCH_DISABLE=near-buffer: a new slice per date
		}{{"without", plain, "sem", false, false}, {"imports", busy, "com", false, false},
			{"imports-walked", busy, "com", true, false}, {"imports-copied", busy, "com", false, true}} {
			owner, err := e.Server.Booking.Owner(ctx, s.user)
			if err != nil {
				b.Fatal(err)
			}
			schedule.AwayByDayOff.Store(s.walk)
			booking.NearBufferOff.Store(s.copy)
			b.Run(string(dialect)+"/times/"+s.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					date := first.AddDate(0, 0, 1+i%60).Format("2006-01-02")
					i++
					if _, err := e.Server.Booking.Times(ctx, owner, s.shop.pro, s.shop.svc, date); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(string(dialect)+"/days/"+s.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					month := []string{"2026-11", "2026-12", "2027-01"}[i%3]
					i++
					if _, err := e.Server.Booking.Days(ctx, owner, s.shop.pro, s.shop.svc, month); err != nil {
						b.Fatal(err)
					}
				}
			})
			schedule.AwayByDayOff.Store(false)
			booking.NearBufferOff.Store(false)
		}
	}
}

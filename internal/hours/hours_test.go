package hours_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/hours"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

// Saves of a week that race, on two instances (two pools on one database),
// leave exactly one of the weeks sent, never a mix of their windows: each
// save replaces the whole week (delete then insert), and on PostgreSQL two
// such transactions under READ COMMITTED each insert after the other's
// delete unless they are serialised.
func TestHours_ConcurrentSavesOnTwoInstancesLeaveOneWholeWeek(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			ctx := context.Background()
			d1, dsn := dbtest.OpenDSN(t, dialect)
			d2 := dbtest.Reopen(t, dsn)
			now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
			for _, q := range []string{
				`INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('o1', 'o1@example.com', 'x', ?, ?)`,
				`INSERT INTO profiles (id, name, created_at, updated_at) VALUES ('o1', 'Clínica', ?, ?)`,
				`INSERT INTO professionals (id, user_id, name, specialization, created_at, updated_at) VALUES ('p1', 'o1', 'Ana', 'Psicóloga', ?, ?)`,
			} {
				if _, err := d1.ExecContext(ctx, q, now, now); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			stores := []*hours.Store{{DB: d1}, {DB: d2}}
			// The four weeks: every day open in one of these windows.
			sent := [][]hours.Day{everyDay("07:00", "09:00"), everyDay("08:00", "12:00"), everyDay("10:00", "18:00"), everyDay("13:00", "14:00")}

			race := func(t *testing.T, save func(s *hours.Store, days []hours.Day) error, get func() ([]hours.Day, error)) {
				for round := range 8 {
					var wg sync.WaitGroup
					start := make(chan struct{})
					for i, days := range sent {
						wg.Add(1)
						go func() {
							defer wg.Done()
							<-start
							if err := save(stores[i%2], days); err != nil {
								t.Error(err)
							}
						}()
					}
					close(start)
					wg.Wait()
					got, err := get()
					if err != nil {
						t.Fatal(err)
					}
					if !slices.ContainsFunc(sent, func(days []hours.Day) bool { return sameWeek(days, got) }) {
						t.Fatalf("round %d: the saved week is none of those sent: %s", round, describe(got))
					}
				}
			}
			t.Run("practice", func(t *testing.T) {
				race(t, func(s *hours.Store, days []hours.Day) error {
					_, err := s.Save(ctx, "o1", days)
					return err
				}, func() ([]hours.Day, error) {
					w, err := stores[0].Get(ctx, "o1")
					if err != nil {
						return nil, err
					}
					return w.Days, nil
				})
			})
			t.Run("professional", func(t *testing.T) {
				race(t, func(s *hours.Store, days []hours.Day) error {
					_, err := s.SaveProfessional(ctx, "o1", "p1", hours.ProfessionalWeek{OwnHours: true, Days: days})
					return err
				}, func() ([]hours.Day, error) {
					w, err := stores[0].GetProfessional(ctx, "o1", "p1")
					if err != nil {
						return nil, err
					}
					return w.Days, nil
				})
			})
		})
	}
}

// everyDay is every day open from start to end.
func everyDay(start, end string) []hours.Day {
	days := make([]hours.Day, 7)
	for d := range days {
		days[d] = hours.Day{DayOfWeek: d, Enabled: true, Windows: []hours.Window{{Start: start, End: end}}}
	}
	return hours.Normalize(days)
}

// sameWeek compares the open windows of each day.
func sameWeek(a, b []hours.Day) bool {
	return describe(a) == describe(b)
}

func describe(days []hours.Day) string {
	s := ""
	for _, d := range days {
		if d.Enabled {
			s += fmt.Sprintf("%d%v ", d.DayOfWeek, d.Windows)
		}
	}
	return s
}

package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
)

// waitlistRounds bounds the waitlist row: that many cancellations, each
// waiting at most waitlistWait for its offer, the whole row at most a minute.
const (
	waitlistRounds = 60
	waitlistWait   = 5 * time.Second
)

// waitlistBench is issue 28's waitlist row: the time from a freed time to
// the first waitlist offer queued. An owner open 08:00–18:00 with one
// one-hour service; each round books a time, puts a new client on the
// waitlist for that date, and cancels the booking by the client's link; the
// offer's row (written in the transaction that queues its e-mail) records
// when the time was freed (freed_at, the cancellation's instant) and when
// it was offered (created_at), both by the server's clock. Rounds run one
// after another on loopback; the row stops after waitlistRounds rounds or a
// minute, whichever is first.
func waitlistBench(base string, d *db.DB, now time.Time, index int) {
	o := newOwner(base, index, "08:00", "18:00", services(1, 60), 1)
	pro, svc := o.pros[0].ID, o.svcs[0].ID
	var took []time.Duration
	missed := 0
	deadline := time.Now().Add(time.Minute)
	for k := 0; k < waitlistRounds && time.Now().Before(deadline); k++ {
		date := now.AddDate(0, 0, 2+k/10).Format("2006-01-02")
		at := fmt.Sprintf("%02d:00", 8+k%10)
		var booked struct{ Token string }
		if code := call(base, "POST", "/api/public/profiles/"+o.username+"/bookings", "", map[string]string{"professionalId": pro, "serviceId": svc,
			"date": date, "time": at, "clientName": fmt.Sprintf("Cliente %d", k), "clientPhone": "11988887777"}, &booked); code != 201 {
			fmt.Printf("waitlist round %d: booking answered %d\n", k, code)
			missed++
			continue
		}
		email := fmt.Sprintf("espera%d@example.com", k)
		if code := call(base, "POST", "/api/public/profiles/"+o.username+"/waitlist", "", map[string]string{"serviceId": svc, "professionalId": pro,
			"firstDate": date, "lastDate": date, "partOfDay": "qualquer", "clientName": fmt.Sprintf("Espera %d", k), "clientEmail": email}, nil); code != 201 {
			fmt.Printf("waitlist round %d: join answered %d\n", k, code)
			missed++
			continue
		}
		if code := call(base, "POST", "/api/public/bookings/"+booked.Token+"/cancel", "", nil, nil); code != 200 {
			fmt.Printf("waitlist round %d: cancel answered %d\n", k, code)
			missed++
			continue
		}
		var freed, offered time.Time
		ok := false
		for wait := time.Now().Add(waitlistWait); time.Now().Before(wait); time.Sleep(2 * time.Millisecond) {
			err := d.QueryRowContext(context.Background(), `SELECT o.freed_at, o.created_at FROM waitlist_offers o JOIN waitlist_entries w ON w.id = o.entry_id
				WHERE w.user_id = ? AND w.client_email = ? AND o.freed_at IS NOT NULL`, o.id, email).Scan(&freed, &offered)
			if err == nil {
				ok = true
				break
			}
		}
		if !ok {
			missed++
			continue
		}
		took = append(took, offered.Sub(freed))
	}
	if len(took) == 0 {
		check("waitlist: an offer for each freed time", false)
		return
	}
	slices.Sort(took)
	at := func(q float64) time.Duration { return took[min(len(took)-1, int(q*float64(len(took))))] }
	fmt.Printf("waitlist: freed time → first offer queued, %d cancellations: p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d without an offer within %s\n",
		len(took), ms(at(0.50)), ms(at(0.99)), ms(took[len(took)-1]), missed, waitlistWait)
	check(fmt.Sprintf("waitlist: freed time → first offer queued p99 ≤ 1 s (%.1f ms), every freed time offered", ms(at(0.99))), at(0.99) <= time.Second && missed == 0)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

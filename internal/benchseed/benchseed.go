// Package benchseed fills a database with a realistic owner's history, for
// benchmarks: appointments written straight into the table, as years of
// bookings would have left them.
package benchseed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/tz"
)

var saoPaulo = tz.Load(tz.Default)

// Ref is a professional or service of the owner.
type Ref struct{ ID, Name string }

// Appointments gives the owner n appointments spread over the 730 days from
// `from` (08:00–17:30, most confirmed, some completed or cancelled), among
// 5,000 recurring clients, then refreshes the planner's statistics.
func Appointments(ctx context.Context, d *db.DB, ownerID string, pros, svcs []Ref, n int, from time.Time) error {
	rng := rand.New(rand.NewPCG(1, 2))
	statuses := []string{"confirmed", "confirmed", "confirmed", "completed", "cancelled"}
	const batch = 5000
	for done := 0; done < n; done += batch {
		err := d.InTx(ctx, func(tx *db.Tx) error {
			for range min(batch, n-done) {
				day := from.AddDate(0, 0, rng.IntN(730))
				hour, minute := 8+rng.IntN(10), 30*rng.IntN(2)
				at := fmt.Sprintf("%02d:%02d", hour, minute)
				starts := time.Date(day.Year(), day.Month(), day.Day(), hour, minute, 0, 0, saoPaulo).UTC()
				client := rng.IntN(5000)
				name := fmt.Sprintf("Cliente %d", client)
				email := fmt.Sprintf("cliente%d@example.com", client)
				phone := ""
				if client%2 == 0 {
					phone = fmt.Sprintf("119%08d", client)
				}
				pro, svc := pros[rng.IntN(len(pros))], svcs[rng.IntN(len(svcs))]
				if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
					duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status,
					cancel_token_hash, search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 60, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
					uuid.NewString(), ownerID, pro.ID, svc.ID, pro.Name, svc.Name, 5000+rng.IntN(20000), name, email, phone, day.Format("2006-01-02"), at, starts,
					statuses[rng.IntN(len(statuses))], uuid.NewString(), booking.SearchKey(name, email), booking.ClientKey(phone, email), day, day); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	// Steady state, as autovacuum/analyze would leave it: statistics for the
	// planner, and PostgreSQL's visibility map for index-only scans.
	if d.Dialect == db.Postgres {
		_, err := d.ExecContext(ctx, "VACUUM ANALYZE appointments")
		return err
	}
	return d.Analyze(ctx) // what the server does when it starts
}

// Due is one appointment with a reminder due: its time and its client.
type Due struct {
	Pro, Svc             Ref
	Day                  time.Time // the appointment's local date (São Paulo)
	At                   string    // "HH:MM"
	Client, Email, Phone string
}

// DueReminder writes a confirmed appointment and queues its first
// reminder, due at due, inside tx — the job booking queues when it books
// (booking.reminder, naming the appointment, the time it reminds of and
// which reminder), as if the moment of a reminder planned long ago had
// come. It returns the appointment's id.
func DueReminder(ctx context.Context, tx *db.Tx, q *jobs.Queue, ownerID string, a Due, due time.Time) (string, error) {
	var hour, minute int
	if _, err := fmt.Sscanf(a.At, "%d:%d", &hour, &minute); err != nil {
		return "", err
	}
	day := a.Day.Format("2006-01-02")
	starts := time.Date(a.Day.Year(), a.Day.Month(), a.Day.Day(), hour, minute, 0, 0, saoPaulo).UTC()
	id := uuid.NewString()
	now := time.Now().UTC()
	if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
		duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status,
		cancel_token_hash, search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 50, 10000, ?, ?, ?, '', ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)`,
		id, ownerID, a.Pro.ID, a.Svc.ID, a.Pro.Name, a.Svc.Name, a.Client, a.Email, a.Phone, day, a.At, starts,
		uuid.NewString(), booking.SearchKey(a.Client, a.Email), booking.ClientKey(a.Phone, a.Email), now, now); err != nil {
		return "", err
	}
	payload := map[string]any{"appointmentId": id, "for": day + " " + a.At, "n": 1}
	return id, q.Enqueue(ctx, tx, jobs.About{UserID: ownerID, AppointmentID: id}, "booking.reminder", payload, due, 8)
}

// Spread gives each of the owner's professionals perPro confirmed
// appointments of 50 minutes on the days first..first+days-1, at distinct
// whole hours from 08:00 to 17:00 (no two of a professional overlap), among
// 5,000 clients: an owner as busy as the given number of appointments, in
// the dates the public pages are asked for. seed varies the draw.
func Spread(ctx context.Context, d *db.DB, ownerID string, pros, svcs []Ref, perPro int, first time.Time, days int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 3))
	perPro = min(perPro, days*10)
	return d.InTx(ctx, func(tx *db.Tx) error {
		for _, pro := range pros {
			taken := map[int]bool{}
			for range perPro {
				k := rng.IntN(days * 10)
				for taken[k] {
					k = (k + 1) % (days * 10)
				}
				taken[k] = true
				day := first.AddDate(0, 0, k/10)
				hour := 8 + k%10
				at := fmt.Sprintf("%02d:00", hour)
				starts := time.Date(day.Year(), day.Month(), day.Day(), hour, 0, 0, 0, saoPaulo).UTC()
				client := rng.IntN(5000)
				name, email := fmt.Sprintf("Cliente %d", client), fmt.Sprintf("cliente%d@example.com", client)
				svc := svcs[rng.IntN(len(svcs))]
				if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
					duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status,
					cancel_token_hash, search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 50, 10000, ?, ?, '', '', ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)`,
					uuid.NewString(), ownerID, pro.ID, svc.ID, pro.Name, svc.Name, name, email, day.Format("2006-01-02"), at, starts,
					uuid.NewString(), booking.SearchKey(name, email), booking.ClientKey("", email), day, day); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

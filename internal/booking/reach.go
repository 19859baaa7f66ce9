// Who the reminders reach (issue 41 §5): the next 30 days' appointments
// counted by the channel their reminders will take, decided by the same
// rule as the send (sendReminder) — WhatsApp when the owner's sender can
// carry a reminder to the client's phone, else e-mail when the client
// gave one; and besides either, a notification on the client's subscribed
// browsers — and the clients nobody will remind, by name, so the owner can
// reach them by hand.

package booking

import (
	"context"
	"database/sql"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/profiles"
)

// ReachDays is how far ahead Reach looks.
const ReachDays = 30

// ReminderRoutes is a reminder sender that can say, for one owner at once,
// whether and how their reminders go out by it — the reach card asks it
// for a whole month of appointments in one read.
type ReminderRoutes interface {
	// ReminderRoute names the number the owner's reminders go from now
	// ("own" their connected number, "agendei" the operator's), or "" when
	// none can carry a reminder.
	ReminderRoute(ctx context.Context, q db.Querier, ownerID string) (string, error)
	// CanReach reports whether a client phone is one the sender can
	// address (a valid number with its country code).
	CanReach(phone string) bool
}

// PushAudience is a push sender that can name, for one owner at once, the
// clients with a browser subscribed (by their client key).
type PushAudience interface {
	SubscribedClients(ctx context.Context, q db.Querier, ownerID string) (map[string]bool, error)
}

// Reach is how the owner's next reminders will reach their clients.
type Reach struct {
	From string `json:"from"` // the owner's today, "YYYY-MM-DD"
	To   string `json:"to"`   // the last day counted
	// On is false when the owner turned reminders off (0 per appointment):
	// the counts say who would be reached if they turned them on.
	On    bool `json:"on"`
	Total int  `json:"total"`
	// Email and WhatsApp count appointments whose reminder goes by that
	// channel; Push those whose client also gets it as a notification on a
	// subscribed browser (besides the others); None those whose client no
	// reminder can reach.
	Email    int `json:"email"`
	WhatsApp int `json:"whatsApp"`
	Push     int `json:"push"`
	None     int `json:"none"`
	// WhatsAppRoute is the number WhatsApp reminders go from: "own",
	// "agendei", or "" (WhatsApp carries none now).
	WhatsAppRoute string `json:"whatsAppRoute"`
	// Unreached are the appointments no reminder will reach, soonest first.
	Unreached []ReachGap `json:"unreached"`
}

// ReachGap is one appointment no reminder will reach.
type ReachGap struct {
	AppointmentID string `json:"appointmentId"`
	Date          string `json:"date"`
	Time          string `json:"time"`
	ClientName    string `json:"clientName"`
	ClientPhone   string `json:"clientPhone"`
	ServiceName   string `json:"serviceName"`
}

// reachChannel is the channel a reminder of a client with these contacts
// takes: the send's own order (sendReminder).
func reachChannel(route string, routes ReminderRoutes, phone, email string) string {
	switch {
	case route != "" && routes != nil && routes.CanReach(phone):
		return "whatsapp"
	case email != "":
		return "email"
	default:
		return ""
	}
}

// Reach counts the owner's confirmed appointments from now to ReachDays
// ahead that will be reminded (not those the owner made without telling
// the client), by the channel their reminders take.
func (s *Service) Reach(ctx context.Context, ownerID string) (*Reach, error) {
	loc, err := profiles.Zone(ctx, s.DB, ownerID)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	r := &Reach{From: now.In(loc).Format("2006-01-02"), To: now.In(loc).AddDate(0, 0, ReachDays).Format("2006-01-02"), Unreached: []ReachGap{}}
	leads, err := s.reminderLeads(ctx, s.DB, ownerID)
	if err != nil {
		return nil, err
	}
	r.On = len(leads) > 0
	routes, _ := s.WhatsApp.(ReminderRoutes)
	if routes != nil {
		if r.WhatsAppRoute, err = routes.ReminderRoute(ctx, s.DB, ownerID); err != nil {
			return nil, err
		}
	}
	subscribed := map[string]bool{}
	if audience, ok := s.Push.(PushAudience); ok {
		if subscribed, err = audience.SubscribedClients(ctx, s.DB, ownerID); err != nil {
			return nil, err
		}
	}
	err = db.Each(ctx, s.DB, `SELECT id, appointment_date, appointment_time, client_name, client_phone, client_email, service_name, client_key
		FROM appointments WHERE user_id = ? AND status = 'confirmed' AND remind = TRUE AND starts_at > ? AND appointment_date <= ?
		ORDER BY appointment_date, appointment_time, id`, []any{ownerID, now, r.To}, func(rows *sql.Rows) error {
		var g ReachGap
		var email, clientKey string
		if err := rows.Scan(&g.AppointmentID, &g.Date, &g.Time, &g.ClientName, &g.ClientPhone, &email, &g.ServiceName, &clientKey); err != nil {
			return err
		}
		r.Total++
		pushed := clientKey != "" && subscribed[clientKey]
		if pushed {
			r.Push++
		}
		switch reachChannel(r.WhatsAppRoute, routes, g.ClientPhone, email) {
		case "whatsapp":
			r.WhatsApp++
		case "email":
			r.Email++
		default:
			if !pushed {
				r.None++
				r.Unreached = append(r.Unreached, g)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

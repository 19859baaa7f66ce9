package booking_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

func notifications(t *testing.T, e *servertest.Env) []string {
	rows, err := e.DB.QueryContext(context.Background(), `SELECT type || ':' || title FROM notifications ORDER BY created_at, title`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

var tokenRE = regexp.MustCompile(`/cancel/([A-Za-z0-9_-]+)`)

func unfold(raw string) string {
	return strings.NewReplacer("=\r\n", "", "=3D", "=").Replace(raw)
}

func TestBooking_SendsConfirmationWithInviteAndTellsTheOwner(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE profiles SET whatsapp = '(11) 97654-3210'`); err != nil {
			t.Fatal(err)
		}
		r := book(e, s, nextMonday, "10:00")
		if r.StatusCode != 201 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		// The card offers the event to Google Agenda, at the booked instant.
		var card struct {
			StartsAt          string
			GoogleCalendarURL string
		}
		r.JSON(t, &card)
		if card.StartsAt != "2026-11-30T13:00:00Z" || !strings.HasPrefix(card.GoogleCalendarURL, "https://calendar.google.com/calendar/render?action=TEMPLATE") ||
			!strings.Contains(card.GoogleCalendarURL, "dates=20261130T130000Z%2F20261130T134500Z") {
			t.Fatalf("card: %+v", card)
		}
		mails := e.Mails()
		var client, owner string
		for _, m := range mails {
			if strings.Contains(m.Raw, "To: <maria@example.com>") {
				client = unfold(m.Raw)
			}
			if strings.Contains(m.Raw, "To: <ana@example.com>") {
				owner = unfold(m.Raw)
			}
		}
		if client == "" || owner == "" {
			t.Fatalf("want a mail to the client and one to the owner, got %d", len(mails))
		}
		for _, want := range []string{"Agendamento confirmado", "text/calendar", "agendamento.ics", "/cancel/", "Adicionar ao Google Agenda", "20261130T130000Z", "https://wa.me/5511976543210"} {
			if !strings.Contains(client, want) {
				t.Errorf("confirmation lacks %q", want)
			}
		}
		if !strings.Contains(owner, "Novo agendamento") || !strings.Contains(owner, "Maria Silva") {
			t.Error("owner mail lacks the booking")
		}
		if got := notifications(t, e); len(got) != 1 || got[0] != "appointment:Novo agendamento" {
			t.Fatalf("notifications %v", got)
		}
	})
}

func TestICS_IsValidICalendarInTheOwnersZone(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		book(e, s, nextMonday, "10:00")
		var ics string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "maria@example.com") && strings.Contains(m.Raw, "text/calendar") {
				ics = m.Calendar(t)
			}
		}
		for _, want := range []string{"BEGIN:VCALENDAR\r\n", "VERSION:2.0\r\n", "BEGIN:VTIMEZONE\r\nTZID:America/Sao_Paulo\r\n",
			"TZOFFSETTO:-0300\r\n", "DTSTART;TZID=America/Sao_Paulo:20261130T100000\r\n", "DTEND;TZID=America/Sao_Paulo:20261130T104500\r\n",
			"SUMMARY:Sessão com Ana\r\n", "END:VEVENT\r\n", "END:VCALENDAR\r\n"} {
			if !strings.Contains(ics, want) {
				t.Errorf("ics lacks %q:\n%s", want, ics)
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(ics, "\r\n"), "\r\n") {
			if len(line) > 75 {
				t.Errorf("unfolded line over 75 octets: %q", line)
			}
		}
	})
}

func TestCancelLink_FreesTheSlotAndTouchesNothingElse(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		book(e, s, nextMonday, "10:00")
		bookFrom(e, "10.1.1.1", s, nextMonday, "11:00")
		var token string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "maria@example.com") && strings.Contains(unfold(m.Raw), "10:00") {
				if mm := tokenRE.FindStringSubmatch(unfold(m.Raw)); mm != nil {
					token = mm[1]
					break
				}
			}
		}
		if token == "" {
			t.Fatal("no cancel link")
		}
		c := e.Client()
		var got struct {
			Status      string
			Cancellable bool
			Time        string
		}
		c.Do("GET", "/api/public/bookings/"+token, nil).JSON(t, &got)
		if got.Status != "confirmed" || !got.Cancellable || got.Time != "10:00" {
			t.Fatalf("%+v", got)
		}
		if r := c.Do("POST", "/api/public/bookings/"+token+"/cancel", nil); r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("POST", "/api/public/bookings/"+token+"/cancel", nil); r.StatusCode != 200 {
			t.Fatal("cancelling twice is fine")
		}
		// 10:00 is free again; 11:00 (another client's) is still taken.
		if got := times(t, e, s, nextMonday); strings.Join(got, ",") != "09:00,09:30,10:00" {
			t.Fatalf("times after cancel: %v", got)
		}
		if r := c.Do("GET", "/api/public/bookings/not-a-token", nil); r.StatusCode != 404 {
			t.Fatalf("unknown token: %d", r.StatusCode)
		}
		if got := notifications(t, e); !contains(got, "appointment:Agendamento cancelado pelo cliente") {
			t.Fatalf("notifications %v", got)
		}
	})
}

func TestReminder_GoesOutOnceADayBeforeEvenWithTwoServers(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		peer := e.Peer()
		book(e, s, nextMonday, "10:00")
		e.Mails() // deliver the confirmation now
		countReminders := func() int {
			n := 0
			for _, m := range e.Mails() {
				if strings.Contains(m.Raw, "Lembrete") {
					n++
				}
			}
			return n
		}
		if countReminders() != 0 {
			t.Fatal("too early")
		}
		// 2026-11-30 10:00 in São Paulo is 13:00 UTC; the reminder is due a day before.
		e.Clock.Set(time.Date(2026, 11, 29, 13, 0, 1, 0, time.UTC))
		done := make(chan struct{})
		go func() { peer.RunJobs(); close(done) }()
		e.RunJobs()
		<-done
		e.RunJobs()
		if n := countReminders(); n != 1 {
			t.Fatalf("%d reminders, want exactly 1", n)
		}
		if got := notifications(t, e); !contains(got, "reminder:Lembrete enviado") {
			t.Fatalf("notifications %v", got)
		}
	})
}

func TestReminder_IsNotSentForACancelledBooking(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		book(e, s, nextMonday, "10:00")
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE appointments SET status = 'cancelled'`); err != nil {
			t.Fatal(err)
		}
		e.Clock.Set(time.Date(2026, 11, 29, 13, 0, 1, 0, time.UTC))
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "Lembrete") {
				t.Fatal("reminder for a cancelled booking")
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestConfirmations_AreLimitedPerRecipientButBookingsStand: the public form
// cannot make the server mail one address without end — three confirmations
// an hour per mailbox ("+tags" included) — yet every booking is made and its
// owner told; an hour later the address gets confirmations again.
func TestConfirmations_AreLimitedPerRecipientButBookingsStand(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		bookAs := func(i int, date, at, email string) {
			c := e.Client()
			c.ForwardedFor = fmt.Sprintf("10.9.0.%d", i+1)
			r := c.Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
				"professionalId": s.professional, "serviceId": s.service, "date": date, "time": at,
				"clientName": "Vítima", "clientPhone": "11977776666", "clientEmail": email})
			if r.StatusCode != 201 {
				t.Fatalf("booking %d: %d %s", i, r.StatusCode, r.Body)
			}
		}
		slots := [][2]string{{"2026-11-30", "09:00"}, {"2026-11-30", "10:00"}, {"2026-11-30", "11:00"}, {"2026-12-07", "09:00"}, {"2026-12-07", "10:00"}}
		emails := []string{"alvo@example.com", "Alvo@Example.com", "alvo+1@example.com", "alvo@example.com", "alvo+2@example.com"}
		for i, sl := range slots {
			bookAs(i, sl[0], sl[1], emails[i])
		}
		confirmations := func() (n int) {
			for _, m := range e.Mails() {
				raw := unfold(m.Raw)
				if strings.Contains(strings.ToLower(raw), "alvo") && strings.Contains(raw, "/cancel/") {
					n++
					if !strings.Contains(m.Text(), "Se você não fez este agendamento, pode ignorar este e-mail.") {
						t.Error("the confirmation does not say it can be ignored")
					}
				}
			}
			return n
		}
		if n := confirmations(); n != 3 {
			t.Fatalf("%d confirmations to one mailbox in an hour, want 3", n)
		}
		var booked, ownerMails int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE client_name = 'Vítima' AND status = 'confirmed'`).Scan(&booked); err != nil {
			t.Fatal(err)
		}
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "To: <ana@example.com>") && strings.Contains(unfold(m.Raw), "Novo agendamento") {
				ownerMails++
			}
		}
		if booked != 5 || ownerMails != 5 {
			t.Fatalf("%d bookings made and %d owner e-mails, want 5 and 5", booked, ownerMails)
		}
		if got := notifications(t, e); len(got) != 5 {
			t.Fatalf("owner notifications %v, want 5", got)
		}

		e.Clock.Advance(61 * time.Minute)
		bookAs(5, "2026-12-07", "11:00", "alvo@example.com")
		if n := confirmations(); n != 4 {
			t.Fatalf("an hour later: %d confirmations, want 4", n)
		}
	})
}

// TestConfirmations_AreLimitedPerOwner: one owner's page sends at most 60
// confirmations an hour, to whatever addresses; the bookings all stand.
func TestConfirmations_AreLimitedPerOwner(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		owner := e.Client()
		if r := owner.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("login: %d %s", r.StatusCode, r.Body)
		}
		var days []map[string]any
		for d := range 7 {
			days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
		}
		if r := owner.Do("PUT", "/api/availability", map[string]any{"days": days}); r.StatusCode != 200 {
			t.Fatalf("availability: %d %s", r.StatusCode, r.Body)
		}
		start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
		for i := range 61 {
			c := e.Client()
			c.ForwardedFor = fmt.Sprintf("10.8.%d.%d", i/200, i%200+1)
			date, at := start.AddDate(0, 0, i/12).Format("2006-01-02"), fmt.Sprintf("%02d:00", 8+i%12)
			r := c.Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
				"professionalId": s.professional, "serviceId": s.service, "date": date, "time": at,
				"clientName": fmt.Sprintf("Cliente %d", i), "clientPhone": "11977776666", "clientEmail": fmt.Sprintf("c%d@example.com", i)})
			if r.StatusCode != 201 {
				t.Fatalf("booking %d (%s %s): %d %s", i, date, at, r.StatusCode, r.Body)
			}
		}
		n := 0
		for _, m := range e.Mails() {
			if strings.Contains(unfold(m.Raw), "/cancel/") {
				n++
			}
		}
		if n != 60 {
			t.Fatalf("%d confirmations from one owner's page in an hour, want 60", n)
		}
	})
}

// The client moves their booking from the private link: only to a time the
// public page offers for the same professional and service, the link keeps
// working, the old time frees, the owner is told and the client's calendar
// moves the event (same UID, SEQUENCE 1); after the cutoff it is refused.
func TestClientReschedule_FromThePrivateLink(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e) // Mondays 09:00–12:00, 45-minute service
		book(e, s, nextMonday, "09:00")
		bookFrom(e, "10.1.1.2", s, nextMonday, "10:30")
		var token string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "maria@example.com") && strings.Contains(unfold(m.Raw), "09:00") {
				if mm := tokenRE.FindStringSubmatch(unfold(m.Raw)); mm != nil {
					token = mm[1]
				}
			}
		}
		if token == "" {
			t.Fatal("no link")
		}
		c := e.Client()
		var link struct{ Username, ProfessionalID, ServiceID string }
		c.Do("GET", "/api/public/bookings/"+token, nil).JSON(t, &link)
		if link.Username != "ana" || link.ProfessionalID != s.professional || link.ServiceID != s.service {
			t.Fatalf("the link names where to pick a time: %+v", link)
		}
		move := func(date, at string) *servertest.Response {
			return c.Do("POST", "/api/public/bookings/"+token+"/reschedule", map[string]string{"date": date, "time": at})
		}
		for _, bad := range []struct{ date, at, code string }{
			{nextMonday, "10:30", "slot_unavailable"},   // another client's
			{nextMonday, "10:15", "slot_outside_hours"}, // off the grid
			{"2026-12-01", "10:00", "day_closed"},       // a Tuesday
		} {
			if r := move(bad.date, bad.at); r.StatusCode != 409 || r.Err(t).Error.Code != bad.code {
				t.Fatalf("%s %s: %d %s", bad.date, bad.at, r.StatusCode, r.Body)
			}
		}
		// 09:30 overlaps only the booking itself, which is moving.
		r := move(nextMonday, "09:30")
		if r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		var moved struct{ Time, Status string }
		r.JSON(t, &moved)
		if moved.Time != "09:30" || moved.Status != "confirmed" {
			t.Fatalf("moved: %+v", moved)
		}
		if got := times(t, e, s, nextMonday); strings.Join(got, ",") != "" {
			t.Fatalf("times after the move: %v", got) // 09:30–10:15 and 10:30–11:15 leave no 45 minutes
		}
		var ics string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "To: <maria@example.com>") {
				if cal := m.Calendar(t); strings.Contains(cal, "SEQUENCE:1") {
					ics = cal
				}
			}
		}
		if !strings.Contains(ics, "T093000") {
			t.Fatalf("the client's updated invite:\n%s", ics)
		}
		if got := notifications(t, e); !contains(got, "appointment:Agendamento remarcado pelo cliente") {
			t.Fatalf("notifications %v", got)
		}
		// The link still works, and still cancels.
		if r := c.Do("POST", "/api/public/bookings/"+token+"/cancel", nil); r.StatusCode != 200 {
			t.Fatalf("cancel after a move: %d %s", r.StatusCode, r.Body)
		}
		if r := move(nextMonday, "11:00"); r.StatusCode != 409 || r.Err(t).Error.Code != "not_movable" {
			t.Fatalf("a cancelled booking moves: %d %s", r.StatusCode, r.Body)
		}
	})
}

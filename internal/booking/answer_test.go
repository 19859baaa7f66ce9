package booking_test

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

var answerRE = regexp.MustCompile(`(Confirmar presença|Preciso remarcar|Cancelar): (\S+/resposta/([A-Za-z0-9_-]+))`)

// reminderLinks delivers due mail and returns the one-tap tokens of the
// newest reminder to the client, by button label.
func reminderLinks(t *testing.T, e *servertest.Env, smtp *smtptest.Server) map[string]string {
	t.Helper()
	e.RunJobs()
	var text string
	for _, m := range smtp.Messages() {
		if m.To[0] == "maria@example.com" && strings.Contains(m.Data, "Lembrete") {
			text = plainText(t, m.Data)
		}
	}
	if text == "" {
		t.Fatal("no reminder e-mail to the client")
	}
	out := map[string]string{}
	for _, m := range answerRE.FindAllStringSubmatch(text, -1) {
		if !strings.HasPrefix(m[2], e.Server.BaseURL+"/resposta/") {
			t.Fatalf("link %q is not the server's", m[2])
		}
		out[m[1]] = m[3]
	}
	if len(out) != 3 {
		t.Fatalf("reminder has %d answer links, want 3:\n%s", len(out), text)
	}
	return out
}

type answerOut struct {
	Action, Answer, Status   string
	Already, PastCutoff      bool
	RescheduleURL            string
	OwnerName, OwnerWhatsapp string
	OwnerContactEmail, Date  string
	Error                    struct{ Code, Message string }
}

func answer(t *testing.T, e *servertest.Env, method, token string) (int, answerOut) {
	t.Helper()
	r := e.Client().Do(method, "/api/public/answers/"+token, nil)
	var out answerOut
	r.JSON(t, &out)
	return r.StatusCode, out
}

func storedAnswer(t *testing.T, e *servertest.Env, id string) (answer, status, channel string) {
	t.Helper()
	if err := e.DB.QueryRowContext(context.Background(), `SELECT client_answer, status, client_answer_channel FROM appointments WHERE id = ?`, id).
		Scan(&answer, &status, &channel); err != nil {
		t.Fatal(err)
	}
	return
}

// A reminder e-mail, through a real SMTP server, carries "Confirmar
// presença", "Preciso remarcar" and "Cancelar"; each link answers once
// (a second tap says it was done), the owner is told, "Cancelar" is
// refused after the owner's cutoff with the practice's contact, and no link
// works once the appointment has ended.
func TestAnswers_ReminderLinksConfirmMoveAndCancelOnce(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			s := openShop(t, e)
			ctx := context.Background()
			if _, err := e.DB.ExecContext(ctx, `UPDATE profiles SET whatsapp = '(11) 97654-3210', cancel_cutoff_hours = 48`); err != nil {
				t.Fatal(err)
			}
			r := book(e, s, nextMonday, "10:00")
			if r.StatusCode != 201 {
				t.Fatalf("book: %d %s", r.StatusCode, r.Body)
			}
			var b struct{ ID string }
			r.JSON(t, &b)
			// 2026-11-30 10:00 in São Paulo is 13:00 UTC: the reminder goes a day before.
			e.Clock.Set(time.Date(2026, 11, 29, 13, 0, 1, 0, time.UTC))
			links := reminderLinks(t, e, smtp)

			// Opening a link changes nothing (mail scanners open links).
			if code, got := answer(t, e, "GET", links["Confirmar presença"]); code != 200 || got.Action != "confirm" || got.Answer != "" || got.Already || got.OwnerName != "Ana" {
				t.Fatalf("preview: %d %+v", code, got)
			}
			if a, _, _ := storedAnswer(t, e, b.ID); a != "" {
				t.Fatalf("a preview answered %q", a)
			}
			code, got := answer(t, e, "POST", links["Confirmar presença"])
			if code != 200 || got.Answer != "confirmed" || got.Already {
				t.Fatalf("confirm: %d %+v", code, got)
			}
			if a, _, ch := storedAnswer(t, e, b.ID); a != "confirmed" || ch != "email" {
				t.Fatalf("stored %q by %q", a, ch)
			}
			if code, got = answer(t, e, "POST", links["Confirmar presença"]); code != 200 || !got.Already || got.Answer != "confirmed" {
				t.Fatalf("second tap: %d %+v", code, got)
			}
			if n := notifications(t, e); !contains(n, "appointment:Presença confirmada") {
				t.Fatalf("notifications %v", n)
			}
			// The grid shows it.
			owner := e.Client()
			owner.Login("ana@example.com", "segredo1")
			var grid struct{ Appointments []struct{ Answer string } }
			owner.Do("GET", "/api/agenda/grid?from="+nextMonday+"&to="+nextMonday, nil).JSON(t, &grid)
			if len(grid.Appointments) != 1 || grid.Appointments[0].Answer != "confirmed" {
				t.Fatalf("grid: %+v", grid)
			}

			// "Preciso remarcar": recorded; past the 48 h cutoff, no link but the contact.
			code, got = answer(t, e, "POST", links["Preciso remarcar"])
			if code != 200 || got.Answer != "reschedule" || !got.PastCutoff || got.RescheduleURL != "" || got.OwnerWhatsapp != "(11) 97654-3210" {
				t.Fatalf("reschedule past the cutoff: %d %+v", code, got)
			}
			// "Cancelar" past the cutoff: refused, nothing changes.
			if code, got = answer(t, e, "POST", links["Cancelar"]); code != 409 || got.Error.Code != "cancel_cutoff" {
				t.Fatalf("cancel past the cutoff: %d %+v", code, got)
			}
			if a, st, _ := storedAnswer(t, e, b.ID); a != "reschedule" || st != "confirmed" {
				t.Fatalf("after a refused cancel: %q %q", a, st)
			}
			// Within the cutoff, "Preciso remarcar" opens the private page's reschedule.
			if _, err := e.DB.ExecContext(ctx, `UPDATE profiles SET cancel_cutoff_hours = 2`); err != nil {
				t.Fatal(err)
			}
			code, got = answer(t, e, "POST", links["Preciso remarcar"])
			if code != 200 || !got.Already || got.PastCutoff || !strings.HasPrefix(got.RescheduleURL, e.Server.BaseURL+"/cancel/") || !strings.HasSuffix(got.RescheduleURL, "?remarcar=1") {
				t.Fatalf("reschedule: %d %+v", code, got)
			}
			private := strings.TrimSuffix(strings.TrimPrefix(got.RescheduleURL, e.Server.BaseURL+"/cancel/"), "?remarcar=1")
			if r := e.Client().Do("GET", "/api/public/bookings/"+private, nil); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"cancellable":true`) {
				t.Fatalf("the private link: %d %s", r.StatusCode, r.Body)
			}
			// "Cancelar" within the cutoff: the client's cancellation, once.
			if code, got = answer(t, e, "POST", links["Cancelar"]); code != 200 || got.Answer != "cancelled" || got.Status != "cancelled" || got.Already {
				t.Fatalf("cancel: %d %+v", code, got)
			}
			if code, got = answer(t, e, "POST", links["Cancelar"]); code != 200 || !got.Already {
				t.Fatalf("cancel again: %d %+v", code, got)
			}
			if code, got = answer(t, e, "POST", links["Confirmar presença"]); code != 409 || got.Error.Code != "appointment_cancelled" {
				t.Fatalf("confirm a cancelled one: %d %+v", code, got)
			}
			if n := notifications(t, e); !contains(n, "appointment:Agendamento cancelado pelo cliente") {
				t.Fatalf("notifications %v", n)
			}
			if got := times(t, e, s, nextMonday); !contains(got, "10:00") {
				t.Fatalf("the cancelled time is not free again: %v", got)
			}
			// After the appointment's end no link works.
			e.Clock.Set(time.Date(2026, 11, 30, 13, 45, 0, 0, time.UTC))
			if code, got = answer(t, e, "GET", links["Confirmar presença"]); code != 404 || got.Error.Code != "link_expired" {
				t.Fatalf("preview after the end: %d %+v", code, got)
			}
			if code, got = answer(t, e, "POST", links["Confirmar presença"]); code != 410 || got.Error.Code != "appointment_ended" {
				t.Fatalf("answer after the end: %d %+v", code, got)
			}
			if code, _ = answer(t, e, "POST", "nao-existe"); code != 404 {
				t.Fatalf("unknown token: %d", code)
			}
		})
	}
}

// Answer is the one entry point (WhatsApp button replies call it): another
// owner's appointment is not found, an unknown action is refused, and the
// channel is recorded. An owner gets fresh links for a WhatsApp nudge only
// for their own appointments.
func TestAnswers_EntryPointKeepsOwnersApart(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		ctx := context.Background()
		r := book(e, s, nextMonday, "10:00")
		var b struct{ ID string }
		r.JSON(t, &b)
		other := e.Client()
		other.Signup("Bia", "bia@example.com", "segredo1", "gato")
		var ana, bia string
		for email, id := range map[string]*string{"ana@example.com": &ana, "bia@example.com": &bia} {
			if err := e.DB.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, email).Scan(id); err != nil {
				t.Fatal(err)
			}
		}
		svc := e.Server.Booking
		var he interface{ Error() string }
		if _, err := svc.Answer(ctx, bia, b.ID, booking.ActionCancel, booking.ChannelWhatsApp); !errors.As(err, &he) || !strings.Contains(err.Error(), "não encontrado") {
			t.Fatalf("another owner's appointment: %v", err)
		}
		if r := other.Do("POST", "/api/appointments/"+b.ID+"/answer-links", nil); r.StatusCode != http.StatusNotFound {
			t.Fatalf("another owner's links: %d %s", r.StatusCode, r.Body)
		}
		if _, err := svc.Answer(ctx, ana, b.ID, "maybe", booking.ChannelWhatsApp); err == nil {
			t.Fatal("an unknown action was accepted")
		}
		res, err := svc.Answer(ctx, ana, b.ID, booking.ActionConfirm, booking.ChannelWhatsApp)
		if err != nil || res.Answer != booking.AnswerConfirmed {
			t.Fatalf("confirm: %+v %v", res, err)
		}
		if a, _, ch := storedAnswer(t, e, b.ID); a != "confirmed" || ch != "whatsapp" {
			t.Fatalf("stored %q by %q", a, ch)
		}
		// What a WhatsApp reply says back.
		if reply, err := svc.AnswerReply(ctx, ana, b.ID, booking.ActionConfirm, booking.ChannelWhatsApp); err != nil || !strings.HasPrefix(reply, "Sua presença já estava confirmada") {
			t.Fatalf("reply %q %v", reply, err)
		}
		if reply, err := svc.AnswerReply(ctx, bia, b.ID, booking.ActionConfirm, booking.ChannelWhatsApp); err != nil || reply != "Agendamento não encontrado." {
			t.Fatalf("another owner's reply %q %v", reply, err)
		}
		// The owner's nudge links answer as WhatsApp.
		owner := e.Client()
		owner.Login("ana@example.com", "segredo1")
		var links booking.AnswerLinks
		r = owner.Do("POST", "/api/appointments/"+b.ID+"/answer-links", nil)
		if r.StatusCode != 201 {
			t.Fatalf("links: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &links)
		token := links.Reschedule[strings.LastIndex(links.Reschedule, "/")+1:]
		if code, got := answer(t, e, "POST", token); code != 200 || got.Answer != "reschedule" || got.RescheduleURL == "" {
			t.Fatalf("reschedule by the nudge: %d %+v", code, got)
		}
		if a, _, ch := storedAnswer(t, e, b.ID); a != "reschedule" || ch != "whatsapp" {
			t.Fatalf("stored %q by %q", a, ch)
		}
		// A move clears the answer: it was about the old time.
		var dash struct{ Unanswered []struct{ ID string } }
		if r := owner.Do("POST", "/api/appointments/"+b.ID+"/reschedule", map[string]any{"date": nextMonday, "time": "11:00",
			"professionalId": s.professional, "serviceId": s.service}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		if a, _, _ := storedAnswer(t, e, b.ID); a != "" {
			t.Fatalf("after a move the answer is %q", a)
		}
		// The dashboard lists tomorrow's appointments without an answer.
		e.Clock.Set(time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC))
		owner.Login("ana@example.com", "segredo1") // the access token of a week ago has expired
		r = owner.Do("GET", "/api/dashboard", nil)
		r.JSON(t, &dash)
		if len(dash.Unanswered) != 1 || dash.Unanswered[0].ID != b.ID {
			t.Fatalf("unanswered: %s", r.Body)
		}
		if _, err := svc.Answer(ctx, ana, b.ID, booking.ActionConfirm, booking.ChannelLink); err != nil {
			t.Fatal(err)
		}
		dash.Unanswered = nil
		owner.Do("GET", "/api/dashboard", nil).JSON(t, &dash)
		if len(dash.Unanswered) != 0 {
			t.Fatalf("answered and still unanswered: %+v", dash)
		}
	})
}

func reminderJobs(t *testing.T, e *servertest.Env) []time.Time {
	t.Helper()
	var out []time.Time
	err := db.Each(context.Background(), e.DB, `SELECT run_at FROM jobs WHERE kind = 'booking.reminder' AND done_at IS NULL ORDER BY run_at`, nil, func(r *sql.Rows) error {
		var at time.Time
		err := r.Scan(&at)
		out = append(out, at.UTC())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Reminders are the owner's setting: saving it re-plans the reminders
// queued for future appointments (two, none, one), and each goes once.
func TestReminders_OwnersSettingReplansQueuedReminders(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		owner := e.Client()
		owner.Login("ana@example.com", "segredo1")
		var rem struct {
			Leads  []int
			Custom bool
			Email  string
		}
		owner.Do("GET", "/api/profile/reminders", nil).JSON(t, &rem)
		if rem.Custom || len(rem.Leads) != 1 || rem.Leads[0] != 24*60 || !strings.Contains(rem.Email, "{servico}") {
			t.Fatalf("defaults: %+v", rem)
		}
		book(e, s, nextMonday, "10:00") // 13:00 UTC
		start := time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC)
		if got := reminderJobs(t, e); len(got) != 1 || !got[0].Equal(start.Add(-24*time.Hour)) {
			t.Fatalf("server default: %v", got)
		}
		save := func(leads []int, email string) int {
			r := owner.Do("PUT", "/api/profile/reminders", map[string]any{"leads": leads, "email": email})
			return r.StatusCode
		}
		if code := save([]int{120, 1440}, "Oi {nome}, confirme: {link_confirmar}"); code != 200 {
			t.Fatalf("save two: %d", code)
		}
		if got := reminderJobs(t, e); len(got) != 2 || !got[0].Equal(start.Add(-24*time.Hour)) || !got[1].Equal(start.Add(-2*time.Hour)) {
			t.Fatalf("two reminders: %v", got)
		}
		if code := save([]int{}, "Oi"); code != 200 {
			t.Fatalf("save none: %d", code)
		}
		if got := reminderJobs(t, e); len(got) != 0 {
			t.Fatalf("no reminders: %v", got)
		}
		for _, bad := range []struct {
			leads []int
			email string
		}{{[]int{60, 120, 180}, "Oi"}, {[]int{10}, "Oi"}, {[]int{60, 60}, "Oi"}, {[]int{60}, ""}, {[]int{60}, "Oi {apelido}"}} {
			if code := save(bad.leads, bad.email); code != 400 {
				t.Fatalf("%v %q: %d, want 400", bad.leads, bad.email, code)
			}
		}
		if code := save([]int{1440, 120}, "Oi {nome}, até {data} às {hora}."); code != 200 {
			t.Fatalf("save two again: %d", code)
		}
		// Each goes once, with the owner's text and the three answers.
		e.Clock.Set(start.Add(-24*time.Hour + time.Second))
		e.RunJobs()
		e.Clock.Set(start.Add(-2*time.Hour + time.Second))
		var sent []string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "Lembrete") {
				sent = append(sent, plainText(t, m.Raw))
			}
		}
		if len(sent) != 2 {
			t.Fatalf("%d reminders sent, want 2", len(sent))
		}
		for _, m := range sent {
			for _, want := range []string{"Oi Maria, até " + brfmt.LongDate(nextMonday) + " às 10:00.", "Confirmar presença", "Preciso remarcar", "/resposta/"} {
				if !strings.Contains(m, want) {
					t.Errorf("reminder lacks %q", want)
				}
			}
		}
	})
}

// whatsApp is a ReminderSender as the WhatsApp integration plugs one in:
// it takes the reminders it can and says ErrNotAvailable for the others.
type whatsApp struct {
	available bool
	got       []booking.Reminder
}

func (w *whatsApp) SendReminder(ctx context.Context, tx *db.Tx, r booking.Reminder) error {
	if !w.available {
		return booking.ErrNotAvailable
	}
	w.got = append(w.got, r)
	return nil
}

// The send step has one seam for WhatsApp: a sender that can send takes the
// reminder (its text filled, with links that answer as WhatsApp) and no
// e-mail goes; one that cannot leaves it to e-mail.
func TestReminders_GoByWhatsAppWhenASenderTakesThem(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		ctx := context.Background()
		if _, err := e.DB.ExecContext(ctx, `UPDATE profiles SET msg_reminder = ?`, "Oi {nome}! Confirma? {link_confirmar}"); err != nil {
			t.Fatal(err)
		}
		wa := &whatsApp{}
		e.Server.Booking.WhatsApp = wa
		book(e, s, nextMonday, "10:00")
		book(e, s, nextMonday, "11:00")
		// A client who gave only a phone is planned a reminder too.
		if r := e.Client().Do("POST", "/api/public/profiles/ana/bookings", map[string]string{"professionalId": s.professional, "serviceId": s.service,
			"date": "2026-12-07", "time": "10:00", "clientName": "Rosa", "clientPhone": "(11) 96666-5555"}); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		if got := reminderJobs(t, e); len(got) != 3 {
			t.Fatalf("%d reminders planned, want 3", len(got))
		}
		e.Mails()
		e.Clock.Set(time.Date(2026, 11, 29, 13, 0, 1, 0, time.UTC)) // the 10:00's reminder
		reminders := func() int {
			n := 0
			for _, m := range e.Mails() {
				if strings.Contains(m.Raw, "Lembrete") {
					n++
				}
			}
			return n
		}
		if n := reminders(); n != 1 || len(wa.got) != 0 {
			t.Fatalf("not available: %d e-mails, %d WhatsApp", n, len(wa.got))
		}
		wa.available = true
		e.Clock.Set(time.Date(2026, 11, 29, 14, 0, 1, 0, time.UTC)) // the 11:00's
		if n := reminders(); n != 1 || len(wa.got) != 1 {
			t.Fatalf("available: %d e-mails, %d WhatsApp", n, len(wa.got))
		}
		r := wa.got[0]
		if r.N != 1 || r.For != "2026-11-30 11:00" || r.ClientPhone == "" || !strings.HasPrefix(r.Text, "Oi Maria! Confirma? "+e.Server.BaseURL+"/resposta/") ||
			r.Key() == "" || r.Links.Cancel == "" {
			t.Fatalf("reminder: %+v", r)
		}
		token := r.Links.Confirm[strings.LastIndex(r.Links.Confirm, "/")+1:]
		if code, got := answer(t, e, "POST", token); code != 200 || got.Answer != "confirmed" {
			t.Fatalf("confirm: %d %+v", code, got)
		}
		var ch string
		if err := e.DB.QueryRowContext(ctx, `SELECT client_answer_channel FROM appointments WHERE appointment_time = '11:00'`).Scan(&ch); err != nil || ch != "whatsapp" {
			t.Fatalf("channel %q %v", ch, err)
		}
		if n := notifications(t, e); !contains(n, "reminder:Lembrete enviado") {
			t.Fatalf("notifications %v", n)
		}
		// WhatsApp's fallback: the reminder it could not deliver goes by e-mail
		// — not for another time of the appointment, nor for another owner.
		svc := e.Server.Booking
		for _, c := range []struct{ owner, at string }{{r.OwnerID, "2026-11-30 10:00"}, {"outro", r.For}, {r.OwnerID, r.For}} {
			if err := svc.EmailReminder(ctx, c.owner, r.AppointmentID, 1, c.at); err != nil {
				t.Fatal(err)
			}
		}
		if n := reminders(); n != 2 || len(wa.got) != 1 {
			t.Fatalf("after the fallback: %d e-mails, %d WhatsApp", n, len(wa.got))
		}
	})
}

// Saving the reminder setting re-plans the reminders of the appointments
// whose clients were to be reminded — never of a hold still waiting for its
// deposit, nor of an appointment the owner wrote in without telling the
// client; a deposit once paid gets its reminders like any booking.
func TestReminders_ReplanSkipsUnpaidHoldsAndAppointmentsMadeWithoutNotice(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		owner := ownerOf(t, e)
		// Made by the owner, without "notify": no reminder.
		if r := owner.Do("POST", "/api/appointments", map[string]any{"professionalId": s.professional, "serviceId": s.service, "date": nextMonday,
			"time": "09:00", "clientName": "Rita Souza", "clientEmail": "rita@example.com", "notifyClient": false}); r.StatusCode != 201 {
			t.Fatalf("owner's appointment: %d %s", r.StatusCode, r.Body)
		}
		withDeposit(t, e, s, 60)
		var held card
		if r := book(e, s, nextMonday, "11:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &held)
		}
		if got := reminderJobs(t, e); len(got) != 0 {
			t.Fatalf("reminders before any save: %v", got)
		}
		if r := owner.Do("PUT", "/api/profile/reminders", map[string]any{"leads": []int{1440}, "email": "Oi {nome}"}); r.StatusCode != 200 {
			t.Fatalf("save: %d %s", r.StatusCode, r.Body)
		}
		if got := reminderJobs(t, e); len(got) != 0 {
			t.Fatalf("the re-plan reminded an unpaid hold or an appointment made without notice: %v", got)
		}
		// Paid: reminded, and kept through the next re-plan.
		if r := owner.Do("POST", "/api/appointments/"+held.ID+"/deposit/received", nil); r.StatusCode != 200 {
			t.Fatalf("received: %d %s", r.StatusCode, r.Body)
		}
		if got := reminderJobs(t, e); len(got) != 1 {
			t.Fatalf("reminders once paid: %v", got)
		}
		if r := owner.Do("PUT", "/api/profile/reminders", map[string]any{"leads": []int{1440, 120}, "email": "Oi {nome}"}); r.StatusCode != 200 {
			t.Fatalf("save: %d %s", r.StatusCode, r.Body)
		}
		if got := reminderJobs(t, e); len(got) != 2 {
			t.Fatalf("reminders of the paid booking after a re-plan: %v", got)
		}
	})
}

// A one-tap link answers for the time its message was about: after the
// owner moves the appointment, the old "Confirmar presença" confirms
// nothing (the client was never asked about the new time); its page says
// the appointment moved; a link of a message about the new time works.
func TestAnswers_AnOldLinkDoesNotAnswerForTheNewTime(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			s := openShop(t, e)
			var b struct{ ID string }
			book(e, s, nextMonday, "10:00").JSON(t, &b)
			e.Clock.Set(time.Date(2026, 11, 29, 13, 0, 1, 0, time.UTC))
			links := reminderLinks(t, e, smtp)
			owner := ownerOf(t, e)
			if r := owner.Do("POST", "/api/appointments/"+b.ID+"/reschedule", map[string]any{"date": nextMonday, "time": "11:00"}); r.StatusCode != 200 {
				t.Fatalf("move: %d %s", r.StatusCode, r.Body)
			}
			var preview struct {
				Moved bool
				Time  string
			}
			e.Client().Do("GET", "/api/public/answers/"+links["Confirmar presença"], nil).JSON(t, &preview)
			if !preview.Moved || preview.Time != "11:00" {
				t.Fatalf("preview of an old link: %+v", preview)
			}
			code, got := answer(t, e, "POST", links["Confirmar presença"])
			if code != 409 || got.Error.Code != "appointment_moved" {
				t.Fatalf("old confirm after the move: %d %+v", code, got)
			}
			if a, _, _ := storedAnswer(t, e, b.ID); a != "" {
				t.Fatalf("an old link answered %q for the new time", a)
			}
			// Links issued now are about the new time, and answer.
			var ana string
			if err := e.DB.QueryRowContext(context.Background(), `SELECT id FROM users WHERE email = 'ana@example.com'`).Scan(&ana); err != nil {
				t.Fatal(err)
			}
			fresh, err := e.Server.Booking.NewAnswerLinks(context.Background(), e.DB, ana, b.ID, booking.ChannelEmail)
			if err != nil {
				t.Fatal(err)
			}
			token := fresh.Confirm[strings.LastIndex(fresh.Confirm, "/")+1:]
			if code, got := answer(t, e, "POST", token); code != 200 || got.Answer != "confirmed" {
				t.Fatalf("a link about the new time: %d %+v", code, got)
			}
		})
	}
}

package whatsapp_test

import (
	"testing"

	"github.com/agendei/agendei/internal/booking"
)

// The reminders card's count (issue 41 §5) follows the send's own rule:
// before WhatsApp carries reminders a phone-only client is reached by
// nobody and named; once the owner's number has its reminder template
// approved, every client with a phone is reached by WhatsApp and the
// e-mail counts only those without one. Appointments past 30 days are not
// counted.
func TestReach_CountsEachAppointmentByTheChannelItsReminderTakes(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		var pros []struct{ ID string }
		w.owner.Do("GET", "/api/professionals", nil).JSON(t, &pros)
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		book := func(date, name, phone, email string) {
			t.Helper()
			if r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
				"professionalId": pros[0].ID, "serviceId": svcs[0].ID, "date": date, "time": "10:00",
				"clientName": name, "clientPhone": phone, "clientEmail": email}); r.StatusCode != 201 {
				t.Fatalf("booking %s: %d %s", name, r.StatusCode, r.Body)
			}
		}
		book("2026-11-27", "Carla Dias", "(11) 91234-5678", "")
		book("2026-11-28", "Davi", "", "davi@example.com")
		book("2026-12-30", "Eva", "(11) 95555-0000", "") // past the 30 days

		reach := func() booking.Reach {
			t.Helper()
			var r booking.Reach
			if resp := w.owner.Do("GET", "/api/reminders/reach", nil); resp.StatusCode != 200 {
				t.Fatalf("reach: %d %s", resp.StatusCode, resp.Body)
			} else {
				resp.JSON(t, &r)
			}
			return r
		}
		r := reach()
		if r.From != "2026-11-23" || r.To != "2026-12-23" || !r.On {
			t.Fatalf("window %s..%s on %v, want 2026-11-23..2026-12-23 on", r.From, r.To, r.On)
		}
		if r.Total != 3 || r.Email != 2 || r.WhatsApp != 0 || r.None != 1 || r.WhatsAppRoute != "" {
			t.Fatalf("before WhatsApp: %+v, want 3 = 2 e-mail + 1 nobody", r)
		}
		if len(r.Unreached) != 1 || r.Unreached[0].ClientName != "Carla Dias" || r.Unreached[0].Date != "2026-11-27" || r.Unreached[0].ClientPhone == "" {
			t.Fatalf("unreached %+v, want Carla on 2026-11-27 with her phone", r.Unreached)
		}

		w.connect(t)
		if r := reach(); r.WhatsAppRoute != "" || r.None != 1 {
			t.Fatalf("templates under review: %+v, want WhatsApp carrying none yet", r)
		}
		w.approve(t)
		r = reach()
		if r.Total != 3 || r.WhatsApp != 2 || r.Email != 1 || r.None != 0 || r.WhatsAppRoute != "own" || len(r.Unreached) != 0 {
			t.Fatalf("with WhatsApp: %+v, want 2 WhatsApp (own number) + 1 e-mail, nobody unreached", r)
		}

		// Reminders off: the counts stay, said as "would reach".
		if resp := w.owner.Do("PUT", "/api/profile/reminders", map[string]any{"leads": []int{}, "email": "Lembrete"}); resp.StatusCode != 200 {
			t.Fatalf("reminders off: %d %s", resp.StatusCode, resp.Body)
		}
		if r := reach(); r.On || r.Total != 3 {
			t.Fatalf("reminders off: %+v, want on=false with the same count", r)
		}
	})
}

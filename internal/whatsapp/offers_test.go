package whatsapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/push"
	"github.com/agendei/agendei/internal/push/pushtest"
	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// offersWorld puts Carla (phone and e-mail) on the waitlist for Bruno's
// day; Bruno's time is then freed by the owner's cancellation.
func offersWorld(t *testing.T, w *world) (free func()) {
	t.Helper()
	var svcs []struct{ ID string }
	w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
	if r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/waitlist", map[string]string{"serviceId": svcs[0].ID, "professionalId": "any",
		"firstDate": "2026-11-26", "lastDate": "2026-11-26", "partOfDay": "tarde", "clientName": "Carla Dias",
		"clientPhone": "(21) 99876-5432", "clientEmail": "carla@example.com"}); r.StatusCode != 201 {
		t.Fatalf("join: %d %s", r.StatusCode, r.Body)
	}
	return func() {
		t.Helper()
		if r := w.owner.Do("PATCH", "/api/appointments/"+w.apptID, map[string]string{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
	}
}

func offerMails(w *world) []string {
	var out []string
	for _, m := range w.e.Mails() {
		if strings.Contains(m.Raw, "carla@example.com") && strings.Contains(m.Raw, "lista-de-espera/oferta/") {
			out = append(out, m.Raw)
		}
	}
	return out
}

func offers(f *graphtest.Fake) []graphtest.Message {
	var out []graphtest.Message
	for _, m := range f.Messages() {
		if m.Template == "agendei_lista_espera_v1" {
			out = append(out, m)
		}
	}
	return out
}

// A freed time is offered by WhatsApp when the owner's number can carry
// it: the offer template is created in the owner's account with the
// others, its message carries the claim link (which claims) and until when
// it holds, no e-mail goes, and running the queue again sends nothing more.
func TestOffer_GoesByWhatsAppWithAClaimLinkOnce(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		st := w.connect(t)
		found := false
		for _, tp := range st.Templates {
			found = found || (tp.Kind == "waitlist_offer" && tp.Name == "agendei_lista_espera_v1")
		}
		if !found || len(w.fake.Templates(w.biz.WABAID)) != len(whatsapp.Kinds) {
			t.Fatalf("templates: %+v at Meta %+v", st.Templates, w.fake.Templates(w.biz.WABAID))
		}
		w.approve(t)
		free := offersWorld(t, w)
		free()
		w.e.RunJobs()
		sent := offers(w.fake)
		if len(sent) != 1 || sent[0].To != "5521998765432" || sent[0].Body[0] != "Carla Dias" || sent[0].Body[4] != "14:00" || sent[0].Body[5] == "" {
			t.Fatalf("offers at Meta: %+v", sent)
		}
		link := sent[0].Body[6]
		_, token, ok := strings.Cut(link, "/lista-de-espera/oferta/")
		if !ok || token == "" {
			t.Fatalf("claim link: %q", link)
		}
		if m := offerMails(w); len(m) != 0 {
			t.Fatalf("%d offer e-mails besides the WhatsApp one", len(m))
		}
		var day struct {
			Entries []struct{ LastOffer *struct{ Sent bool } }
		}
		w.owner.Do("GET", "/api/waitlist?date=2026-11-26", nil).JSON(t, &day)
		if len(day.Entries) != 1 || day.Entries[0].LastOffer == nil || !day.Entries[0].LastOffer.Sent {
			t.Fatalf("the owner's list: %+v", day.Entries)
		}
		if r := w.e.Client().Do("POST", "/api/public/waitlist-offers/"+token+"/claim", nil); r.StatusCode != 200 && r.StatusCode != 201 {
			t.Fatalf("claim by the WhatsApp link: %d %s", r.StatusCode, r.Body)
		}
		if p := w.fake.Problems(); len(p) > 0 {
			t.Fatalf("requests not as Meta documents: %v", p)
		}
	})
}

// An offer WhatsApp cannot deliver (Meta refuses it for good) goes by
// e-mail instead, once.
func TestOffer_WhatsAppFailureGoesByEmail(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		w.fake.FailNextSends(1, 400, 131026, "Message undeliverable")
		offersWorld(t, w)()
		w.e.RunJobs()
		if n := len(offers(w.fake)); n != 0 {
			t.Fatalf("%d offers at Meta", n)
		}
		mails := offerMails(w)
		if len(mails) != 1 {
			t.Fatalf("%d offer e-mails, want the one instead of WhatsApp", len(mails))
		}
		if w.fake.Sends() != 1 {
			t.Fatalf("Meta was called %d times", w.fake.Sends())
		}
	})
}

// While the offer template is not approved at Meta (in review, or paused
// after approval), offers go by e-mail.
func TestOffer_TemplateInReviewGoesByEmail(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		w.fake.SetTemplateStatus(w.biz.WABAID, "agendei_lista_espera_v1", "PENDING")
		w.e.Clock.Advance(11 * 60e9)
		w.owner.Do("GET", "/api/whatsapp", nil)
		offersWorld(t, w)()
		if n, m := len(offers(w.fake)), len(offerMails(w)); n != 0 || m != 1 {
			t.Fatalf("%d WhatsApp offers, %d e-mails while the template is in review", n, m)
		}
	})
}

// One cancellation is no spam cannon from the owner's number (issue 38:
// one freed time sent 300 billed offers): of twelve phone-only clients
// waiting, three get the WhatsApp offer — three send jobs queued, three
// messages at Meta.
func TestOffer_AFreedTimeGoesByWhatsAppToThreeAtATime(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		for i := range 12 {
			c := w.e.Client()
			c.ForwardedFor = fmt.Sprintf("10.38.0.%d", i)
			if r := c.Do("POST", "/api/public/profiles/sorriso/waitlist", map[string]string{"serviceId": svcs[0].ID, "professionalId": "any",
				"firstDate": "2026-11-26", "lastDate": "2026-11-26", "partOfDay": "tarde", "clientName": fmt.Sprintf("Cliente %d", i),
				"clientPhone": fmt.Sprintf("(21) 99876-54%02d", i)}); r.StatusCode != 201 {
				t.Fatalf("join %d: %d %s", i, r.StatusCode, r.Body)
			}
		}
		if r := w.owner.Do("PATCH", "/api/appointments/"+w.apptID, map[string]string{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		var queued int
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE kind = 'whatsapp.send' AND payload LIKE '%offerId%'`).Scan(&queued); err != nil {
			t.Fatal(err)
		}
		if sent := offers(w.fake); len(sent) != 3 || queued != 3 {
			t.Fatalf("offers: %d at Meta, %d send jobs; want 3 and 3", len(sent), queued)
		}
	})
}

// The client is told at joining how a freed time will reach them, as the
// offer will go (issue 39, point 12): a phone-only client of a practice
// without WhatsApp hears it from the practice, not "avisamos".
func TestOffer_JoinSaysTheChannelTheOfferWillTake(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		n := 0
		join := func(phone, email string) string {
			t.Helper()
			n++
			var out struct{ Notice string }
			r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/waitlist", map[string]string{"serviceId": svcs[0].ID, "professionalId": "any",
				"firstDate": "2026-11-26", "partOfDay": "tarde", "clientName": fmt.Sprintf("Cliente %d", n), "clientPhone": phone, "clientEmail": email})
			if r.StatusCode != 201 {
				t.Fatalf("join: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &out)
			return out.Notice
		}
		if got := join("(21) 99876-0001", ""); got != "owner" {
			t.Fatalf("phone only, no WhatsApp: %q", got)
		}
		if got := join("(21) 99876-0002", "b@example.com"); got != "email" {
			t.Fatalf("phone and e-mail, no WhatsApp: %q", got)
		}
		w.connect(t)
		w.approve(t)
		if got := join("(21) 99876-0003", ""); got != "whatsapp" {
			t.Fatalf("phone only, WhatsApp approved: %q", got)
		}
		if got := join("", "d@example.com"); got != "email" {
			t.Fatalf("e-mail only, WhatsApp approved: %q", got)
		}
	})
}

// pushTo points the server at an in-process push service and subscribes
// Carla's browser on the private page of a booking of hers (her client
// key is her phone's, as her waitlist entry's).
func pushTo(t *testing.T, w *world) (*pushtest.Service, *pushtest.Browser) {
	t.Helper()
	pf := pushtest.New(t)
	w.e.Server.Push.Hosts = []string{pf.Host()}
	w.e.Server.Push.HTTP = pf.Client()
	var svcs []struct{ ID string }
	w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
	c := w.e.Client()
	c.ForwardedFor = "10.41.0.1"
	r := c.Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{"professionalId": "any", "serviceId": svcs[0].ID,
		"date": "2026-11-27", "time": "10:00", "clientName": "Carla Dias", "clientPhone": "(21) 99876-5432", "clientEmail": "carla@example.com"})
	if r.StatusCode != 201 {
		t.Fatalf("Carla's booking: %d %s", r.StatusCode, r.Body)
	}
	var b struct{ Token string }
	r.JSON(t, &b)
	var k struct{ PublicKey string }
	c.Do("GET", "/api/public/push/key", nil).JSON(t, &k)
	browser := pf.Subscribe(k.PublicKey)
	if r := c.Do("POST", "/api/public/bookings/"+b.Token+"/push", browser.JSON()); r.StatusCode != 200 {
		t.Fatalf("subscribe: %d %s", r.StatusCode, r.Body)
	}
	w.e.RunJobs() // her booking's messages, out of the way
	return pf, browser
}

// pushedOffer is the one offer notification the browser received,
// decrypted, and the token of the claim link it carries.
func pushedOffer(t *testing.T, pf *pushtest.Service, b *pushtest.Browser) string {
	t.Helper()
	var offers []push.Notification
	for _, m := range pf.For(b) {
		var n push.Notification
		if err := json.Unmarshal(m.Plaintext, &n); err != nil {
			t.Fatalf("payload %q: %v", m.Plaintext, err)
		}
		if strings.HasPrefix(n.Title, "Vagou um horário") {
			if m.Urgency != "high" {
				t.Fatalf("an offer pushed with urgency %q", m.Urgency)
			}
			offers = append(offers, n)
		}
	}
	if len(offers) != 1 || offers[0].Title != "Vagou um horário: Limpeza em 26/11/2026 às 14:00" {
		t.Fatalf("offer notifications: %+v", offers)
	}
	_, token, ok := strings.Cut(offers[0].URL, "/lista-de-espera/oferta/")
	if !ok || token == "" {
		t.Fatalf("the notification's link: %q", offers[0].URL)
	}
	if r := pf.Refusals(); len(r) > 0 {
		t.Fatalf("the push service refused: %v", r)
	}
	return token
}

// An offer WhatsApp carries is pushed too (issue 41 §4: offers "also go by
// push"), decrypted by the push service with the browser's keys. WhatsApp's
// message mints the offer's claim link as it sends; the notification's
// link is its own and still claims after it. Either link claims the one
// offer, once: the other then says it is claimed. The owner's list names
// both channels, and running the queue again sends nothing more.
func TestOffer_WhatsAppAndPushBothCarryItAndOneClaimWins(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		pf, browser := pushTo(t, w)
		offersWorld(t, w)()
		w.e.RunJobs()
		sent := offers(w.fake)
		if len(sent) != 1 || len(offerMails(w)) != 0 {
			t.Fatalf("%d WhatsApp offers, %d e-mails: want the WhatsApp one", len(sent), len(offerMails(w)))
		}
		_, waToken, _ := strings.Cut(sent[0].Body[6], "/lista-de-espera/oferta/")
		pushToken := pushedOffer(t, pf, browser)
		if pushToken == waToken {
			t.Fatal("the notification carries WhatsApp's link")
		}
		var seen struct{ Status string }
		if r := w.e.Client().Do("GET", "/api/public/waitlist-offers/"+pushToken, nil); r.StatusCode != 200 {
			t.Fatalf("the notification's link after WhatsApp's was minted: %d %s", r.StatusCode, r.Body)
		} else if r.JSON(t, &seen); seen.Status != "open" {
			t.Fatalf("the notification's offer is %q", seen.Status)
		}
		var day struct {
			Entries []struct {
				Channels  []string
				LastOffer *struct {
					Sent     bool
					Channels []string
				}
			}
		}
		w.owner.Do("GET", "/api/waitlist?date=2026-11-26", nil).JSON(t, &day)
		if len(day.Entries) != 1 || day.Entries[0].LastOffer == nil || !day.Entries[0].LastOffer.Sent ||
			fmt.Sprint(day.Entries[0].LastOffer.Channels) != "[whatsapp push]" || fmt.Sprint(day.Entries[0].Channels) != "[whatsapp push]" {
			t.Fatalf("the owner's list: %+v", day.Entries)
		}
		if r := w.e.Client().Do("POST", "/api/public/waitlist-offers/"+pushToken+"/claim", nil); r.StatusCode != 201 {
			t.Fatalf("claim by the notification's link: %d %s", r.StatusCode, r.Body)
		}
		if r := w.e.Client().Do("POST", "/api/public/waitlist-offers/"+waToken+"/claim", nil); r.StatusCode != 409 || r.Err(t).Error.Code != "offer_claimed" {
			t.Fatalf("the WhatsApp link after the claim: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		if n, m := len(offers(w.fake)), len(pf.For(browser)); n != 1 || m != 1 {
			t.Fatalf("after the claim: %d WhatsApp offers, %d notifications", n, m)
		}
		if p := w.fake.Problems(); len(p) > 0 {
			t.Fatalf("requests not as Meta documents: %v", p)
		}
	})
}

// WhatsApp failing for good sends the offer by e-mail with a fresh link,
// which ends WhatsApp's; the notification's link, already on the phone,
// still claims — and the e-mail's then says it is claimed.
func TestOffer_ThePushedLinkOutlivesTheEmailSentInsteadOfWhatsApp(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		pf, browser := pushTo(t, w)
		w.fake.FailNextSends(1, 400, 131026, "Message undeliverable")
		offersWorld(t, w)()
		w.e.RunJobs()
		mails := offerMails(w)
		if len(mails) != 1 || len(offers(w.fake)) != 0 {
			t.Fatalf("%d e-mails, %d WhatsApp offers: want the e-mail instead", len(mails), len(offers(w.fake)))
		}
		pushToken := pushedOffer(t, pf, browser)
		if r := w.e.Client().Do("POST", "/api/public/waitlist-offers/"+pushToken+"/claim", nil); r.StatusCode != 201 {
			t.Fatalf("claim by the notification's link: %d %s", r.StatusCode, r.Body)
		}
		m := regexp.MustCompile(`/lista-de-espera/oferta/([A-Za-z0-9_\-]+)`).FindStringSubmatch(strings.ReplaceAll(mails[0], "=\r\n", "")) // quoted-printable's soft breaks
		if m == nil {
			t.Fatalf("no claim link in the e-mail:\n%s", mails[0])
		}
		mailToken := m[1]
		if r := w.e.Client().Do("POST", "/api/public/waitlist-offers/"+mailToken+"/claim", nil); r.StatusCode != 409 || r.Err(t).Error.Code != "offer_claimed" {
			t.Fatalf("the e-mail's link after the claim: %d %s", r.StatusCode, r.Body)
		}
	})
}

package waitlist_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// The clock of servertest is Monday 2026-11-23, 09:00 in São Paulo; the
// shop opens Mondays 09:00–12:00 for a 45-minute session, so 09:00, 10:00
// and 11:00 booked fill the day (09:30 and 10:30 would run into the next).
const monday = "2026-11-30"

type shop struct {
	owner        *servertest.Client
	ownerID      string
	pro, other   string
	svc          string
	username     string
	email        string
	bookedTokens map[string]string // time -> the client's private token
}

func openShop(t *testing.T, e *servertest.Env, email, username string) *shop {
	t.Helper()
	c := e.Client()
	var me struct{ User struct{ ID string } }
	c.Signup("Ana", email, "segredo1", "gato").JSON(t, &me)
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": d == 1, "start": "09:00", "end": "12:00"})
	}
	if r := c.Do("POST", "/api/onboarding", map[string]any{"name": "Clínica " + username, "area": "Psicologia", "publicUsername": username,
		"services": []map[string]any{{"name": "Sessão", "duration": 45, "priceCents": 15000}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var pro, other struct{ ID string }
	c.Do("POST", "/api/professionals", map[string]string{"name": "Bruno", "specialization": "Psicólogo"}).JSON(t, &pro)
	c.Do("POST", "/api/professionals", map[string]string{"name": "Carla", "specialization": "Psicóloga"}).JSON(t, &other)
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	return &shop{owner: c, ownerID: me.User.ID, pro: pro.ID, other: other.ID, svc: svcs[0].ID, username: username, email: email, bookedTokens: map[string]string{}}
}

// fill books every time of Bruno's Monday, each by another client.
func (s *shop) fill(t *testing.T, e *servertest.Env, pro string) {
	t.Helper()
	for i, at := range []string{"09:00", "10:00", "11:00"} {
		c := e.Client()
		c.ForwardedFor = fmt.Sprintf("10.9.%d.1", i)
		var b struct{ Token string }
		r := c.Do("POST", "/api/public/profiles/"+s.username+"/bookings", map[string]string{"professionalId": pro, "serviceId": s.svc,
			"date": monday, "time": at, "clientName": "Cliente " + at, "clientPhone": fmt.Sprintf("(11) 9000%d-0000", i)})
		if r.StatusCode != 201 {
			t.Fatalf("book %s: %d %s", at, r.StatusCode, r.Body)
		}
		r.JSON(t, &b)
		s.bookedTokens[pro+at] = b.Token
	}
}

// advance moves the clock on, and signs the owner in again (sessions last
// less than the waits here).
func (s *shop) advance(t *testing.T, e *servertest.Env, d time.Duration) {
	t.Helper()
	e.Clock.Advance(d)
	if r := s.owner.Login(s.email, "segredo1"); r.StatusCode != 200 {
		t.Fatalf("login: %d %s", r.StatusCode, r.Body)
	}
}

func (s *shop) times(t *testing.T, e *servertest.Env, pro string) []string {
	t.Helper()
	var out struct{ Times []string }
	e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/%s/times?date=%s&professional=%s&service=%s", s.username, monday, pro, s.svc), nil).JSON(t, &out)
	return out.Times
}

// join puts a client on the list and returns their private token.
func (s *shop) join(t *testing.T, e *servertest.Env, ip string, in map[string]string) string {
	t.Helper()
	body := map[string]string{"serviceId": s.svc, "professionalId": s.pro, "firstDate": monday, "lastDate": monday, "partOfDay": "qualquer"}
	for k, v := range in {
		body[k] = v
	}
	c := e.Client()
	c.ForwardedFor = ip
	r := c.Do("POST", "/api/public/profiles/"+s.username+"/waitlist", body)
	if r.StatusCode != 201 {
		t.Fatalf("join %v: %d %s", in, r.StatusCode, r.Body)
	}
	var out struct{ Token string }
	r.JSON(t, &out)
	return out.Token
}

type entry struct {
	ID, ClientName, PartOfDay string
	LastOffer                 *struct {
		Date, Time, Status string
		ByOwner, Sent      bool
	}
}

func (s *shop) list(t *testing.T, date string) []entry {
	t.Helper()
	var out struct{ Entries []entry }
	r := s.owner.Do("GET", "/api/waitlist?date="+date, nil)
	if r.StatusCode != 200 {
		t.Fatalf("list: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	return out.Entries
}

var offerRE = regexp.MustCompile(`/lista-de-espera/oferta/([A-Za-z0-9_\-]+)`)

// offers are the offer e-mails received, by recipient, in the order sent:
// the claim token and the subject line.
type offer struct{ to, token, body string }

func offersIn(t *testing.T, msgs []smtptest.Message) []offer {
	t.Helper()
	var out []offer
	for _, m := range msgs {
		raw := strings.ReplaceAll(m.Data, "=\r\n", "")
		raw = strings.ReplaceAll(raw, "=3D", "=")
		if !strings.Contains(raw, "Vagou um hor") {
			continue
		}
		k := offerRE.FindStringSubmatch(raw)
		if k == nil {
			t.Fatalf("an offer without its link:\n%s", raw)
		}
		out = append(out, offer{to: m.To[0], token: k[1], body: raw})
	}
	return out
}

func withSMTP(t *testing.T, fn func(t *testing.T, e *servertest.Env, smtp *smtptest.Server)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			fn(t, e, smtp)
		})
	}
}

// The whole story: a full day, clients join in order, the booked client
// cancels by their link, the matching entries get their offers by e-mail in
// order of arrival (not the one waiting for the afternoon, nor the one
// waiting for another professional), and of several racing claims of the
// time exactly one books; the others are told it is gone and stay listed.
func TestWaitlist_FreedTimeIsOfferedInOrderAndOneClaimWins(t *testing.T) {
	withSMTP(t, func(t *testing.T, e *servertest.Env, smtp *smtptest.Server) {
		s := openShop(t, e, "ana@example.com", "ana")
		s.fill(t, e, s.pro)
		if got := s.times(t, e, s.pro); len(got) != 0 {
			t.Fatalf("the day should be full: %v", got)
		}
		s.join(t, e, "10.1.0.1", map[string]string{"clientName": "Primeira", "clientEmail": "primeira@example.com", "partOfDay": "manha"})
		e.Clock.Advance(time.Second)
		s.join(t, e, "10.1.0.2", map[string]string{"clientName": "Segunda", "clientEmail": "segunda@example.com", "professionalId": "any"})
		e.Clock.Advance(time.Second)
		s.join(t, e, "10.1.0.3", map[string]string{"clientName": "Tarde", "clientEmail": "tarde@example.com", "partOfDay": "tarde"})
		e.Clock.Advance(time.Second)
		s.join(t, e, "10.1.0.4", map[string]string{"clientName": "Outra", "clientEmail": "outra@example.com", "professionalId": s.other})
		e.Clock.Advance(time.Second)
		s.join(t, e, "10.1.0.5", map[string]string{"clientName": "Sem Email", "clientPhone": "(11) 98888-7777"})
		e.RunJobs()
		if n := len(offersIn(t, smtp.Messages())); n != 0 {
			t.Fatalf("offers before any time freed: %d", n)
		}

		// The 10:00 client cancels by their link.
		if r := e.Client().Do("POST", "/api/public/bookings/"+s.bookedTokens[s.pro+"10:00"]+"/cancel", nil); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		e.RunJobs()
		got := offersIn(t, smtp.Messages())
		var to []string
		for _, o := range got {
			to = append(to, o.to)
		}
		if strings.Join(to, ",") != "primeira@example.com,segunda@example.com" {
			t.Fatalf("offers went to %v, want the first, then the second (not the afternoon, not another professional's)", to)
		}
		for _, o := range got {
			if !strings.Contains(o.body, "10:00") || strings.Contains(o.body, "09:00") || strings.Contains(o.body, "11:00") {
				t.Fatalf("offer of the wrong time:\n%s", o.body)
			}
		}
		// The client without an e-mail has the offer too, for the owner to pass on.
		listed := s.list(t, monday)
		if len(listed) != 5 {
			t.Fatalf("listed: %+v", listed)
		}
		if o := listed[4].LastOffer; o == nil || o.Time != "10:00" || o.Sent || o.Status != "open" {
			t.Fatalf("the phone-only entry's offer: %+v", listed[4])
		}
		var view struct{ Status, Time, ProfessionalName string }
		e.Client().Do("GET", "/api/public/waitlist-offers/"+got[0].token, nil).JSON(t, &view)
		if view.Status != "open" || view.Time != "10:00" || view.ProfessionalName != "Bruno" {
			t.Fatalf("offer view: %+v", view)
		}
		// Issue 43 §3: with prices hidden on the public page, the offer's page carries none either.
		offerBody := func() string {
			return string(e.Client().Do("GET", "/api/public/waitlist-offers/"+got[0].token, nil).Body)
		}
		if b := offerBody(); !strings.Contains(b, `"priceCents":15000`) {
			t.Fatalf("offer with prices shown: %s", b)
		}
		s.owner.Do("PUT", "/api/profile/public-page", map[string]bool{"hidePrices": true})
		if b := offerBody(); strings.Contains(b, "price") || strings.Contains(b, "15000") {
			t.Fatalf("offer with prices hidden: %s", b)
		}

		// Three claims race: both offers, and the first one twice.
		tokens := []string{got[0].token, got[1].token, got[0].token}
		codes := make([]string, len(tokens))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, tok := range tokens {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := e.Client()
				c.ForwardedFor = fmt.Sprintf("10.2.0.%d", i)
				<-start
				r := c.Do("POST", "/api/public/waitlist-offers/"+tok+"/claim", nil)
				codes[i] = fmt.Sprint(r.StatusCode)
				if r.StatusCode != 201 {
					codes[i] += " " + r.Err(t).Error.Code
				}
			}()
		}
		close(start)
		wg.Wait()
		sorted := append([]string(nil), codes...)
		sort.Strings(sorted)
		won := 0
		for _, c := range sorted {
			if c == "201" {
				won++
			} else if c != "409 slot_gone" && c != "409 offer_claimed" {
				t.Fatalf("a lost claim answered %q", c)
			}
		}
		if won != 1 {
			t.Fatalf("claims: %v, want exactly one 201", codes)
		}
		var held int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE user_id = ? AND appointment_date = ? AND appointment_time = '10:00' AND status = 'confirmed'`,
			s.ownerID, monday).Scan(&held); err != nil || held != 1 {
			t.Fatalf("10:00 held by %d appointments (%v)", held, err)
		}
		// A later claim is told the time is gone, in pt-BR, and stays listed.
		for _, o := range got {
			r := e.Client().Do("POST", "/api/public/waitlist-offers/"+o.token+"/claim", nil)
			if r.StatusCode != 409 {
				t.Fatalf("a second claim: %d %s", r.StatusCode, r.Body)
			}
			if msg := r.Err(t).Error.Message; r.Err(t).Error.Code == "slot_gone" && !strings.HasPrefix(msg, "Esse horário já foi preenchido.") {
				t.Fatalf("gone says: %s", msg)
			}
		}
		if got := s.list(t, monday); len(got) != 4 {
			t.Fatalf("after the claim, the four who did not book stay listed: %+v", got)
		}
		var claimedBy string
		if err := e.DB.QueryRowContext(context.Background(), `SELECT a.client_name FROM appointments a JOIN waitlist_entries w ON w.appointment_id = a.id WHERE w.user_id = ?`,
			s.ownerID).Scan(&claimedBy); err != nil || (claimedBy != "Primeira" && claimedBy != "Segunda") {
			t.Fatalf("the booked entry: %q %v", claimedBy, err)
		}
	})
}

// What frees time besides a client's cancel: the owner's cancel, a move,
// a removed block; and what does not match: a part of day without the
// freed time, another owner's list.
func TestWaitlist_EveryFreeingOffersAndOnlyMatchingEntries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e, "ana@example.com", "ana")
		other := openShop(t, e, "bia@example.com", "bia")
		s.fill(t, e, s.pro)
		s.join(t, e, "10.1.0.1", map[string]string{"clientName": "Primeira", "clientEmail": "primeira@example.com"})
		other.join(t, e, "10.1.0.2", map[string]string{"clientName": "De Outra", "clientEmail": "deoutra@example.com", "professionalId": "any"})
		offered := func() string {
			t.Helper()
			e.RunJobs()
			l := s.list(t, monday)
			if len(l) != 1 || l[0].LastOffer == nil {
				return ""
			}
			return l[0].LastOffer.Time + " " + l[0].LastOffer.Status
		}
		// The owner cancels 09:00 in the agenda.
		var appts struct{ Appointments []struct{ ID, Time string } }
		s.owner.Do("GET", "/api/appointments?from="+monday+"&to="+monday, nil).JSON(t, &appts)
		ids := map[string]string{}
		for _, a := range appts.Appointments {
			ids[a.Time] = a.ID
		}
		if r := s.owner.Do("PATCH", "/api/appointments/"+ids["09:00"], map[string]string{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("owner cancel: %d %s", r.StatusCode, r.Body)
		}
		if got := offered(); got != "09:00 open" {
			t.Fatalf("after the owner's cancel: %q", got)
		}
		// The other owner's entry got nothing.
		if l := other.list(t, monday); len(l) != 1 || l[0].LastOffer != nil {
			t.Fatalf("another owner's list: %+v", l)
		}
		// An entry with an open offer gets no second one; when it expires
		// (15 minutes by default), the next freed time is offered again.
		if r := s.owner.Do("POST", "/api/blocks", map[string]string{"professionalId": s.pro, "date": monday, "start": "09:00", "end": "09:45", "reason": "Reunião"}); r.StatusCode != 201 {
			t.Fatalf("block: %d %s", r.StatusCode, r.Body)
		}
		s.advance(t, e, 16*time.Minute)
		if got := offered(); got != "09:00 expired" {
			t.Fatalf("the offer should expire after 15 minutes: %q", got)
		}
		// The owner moves 11:00 to another Monday: 11:00 frees.
		if r := s.owner.Do("POST", "/api/appointments/"+ids["11:00"]+"/reschedule", map[string]any{"date": "2026-12-07", "time": "11:00"}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		if got := offered(); got != "11:00 open" {
			t.Fatalf("after the move: %q", got)
		}
		s.advance(t, e, 16*time.Minute)
		var blocks []struct{ ID string }
		s.owner.Do("GET", "/api/blocks?from="+monday+"&to="+monday, nil).JSON(t, &blocks)
		if len(blocks) != 1 {
			t.Fatalf("blocks: %+v", blocks)
		}
		if r := s.owner.Do("DELETE", "/api/blocks/"+blocks[0].ID, nil); r.StatusCode != 200 && r.StatusCode != 204 {
			t.Fatalf("unblock: %d %s", r.StatusCode, r.Body)
		}
		if got := offered(); got != "09:00 open" {
			t.Fatalf("after the block was removed: %q", got)
		}
	})
}

// An owner sees only their own list and cannot offer to another's entry;
// an owner offers a free time by hand.
func TestWaitlist_OwnersListTenancyAndOfferByHand(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e, "ana@example.com", "ana")
		other := openShop(t, e, "bia@example.com", "bia")
		s.join(t, e, "10.1.0.1", map[string]string{"clientName": "Primeira", "clientEmail": "primeira@example.com", "lastDate": "2026-12-07"})
		l := s.list(t, "2026-12-07")
		if len(l) != 1 || l[0].ClientName != "Primeira" {
			t.Fatalf("list: %+v", l)
		}
		if l := other.list(t, "2026-12-07"); len(l) != 0 {
			t.Fatalf("another owner sees: %+v", l)
		}
		if r := other.owner.Do("POST", "/api/waitlist/"+l[0].ID+"/offers", map[string]string{"date": monday, "time": "10:00"}); r.StatusCode != 404 {
			t.Fatalf("another owner's offer: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("POST", "/api/waitlist/"+l[0].ID+"/offers", map[string]string{"date": "2026-12-14", "time": "10:00"}); r.StatusCode != 400 {
			t.Fatalf("a date the entry does not wait for: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("POST", "/api/waitlist/"+l[0].ID+"/offers", map[string]string{"date": monday, "time": "10:15"}); r.StatusCode != 409 {
			t.Fatalf("a time not free: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("PUT", "/api/waitlist/settings", map[string]int{"offerMinutes": 30}); r.StatusCode != 200 {
			t.Fatalf("settings: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("PUT", "/api/waitlist/settings", map[string]int{"offerMinutes": 2}); r.StatusCode != 400 {
			t.Fatalf("settings below 5: %d %s", r.StatusCode, r.Body)
		}
		r := s.owner.Do("POST", "/api/waitlist/"+l[0].ID+"/offers", map[string]string{"date": monday, "time": "10:00"})
		var o struct {
			Time      string
			ExpiresAt time.Time
			ByOwner   bool
			Sent      bool
		}
		r.JSON(t, &o)
		if r.StatusCode != 201 || !o.ByOwner || !o.Sent || !o.ExpiresAt.Equal(e.Clock.Now().Add(30*time.Minute)) {
			t.Fatalf("offer by hand: %d %s", r.StatusCode, r.Body)
		}
		var sent int
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "Vagou um hor") && strings.Contains(m.Raw, "primeira@example.com") {
				sent++
			}
		}
		if sent != 1 {
			t.Fatalf("offer e-mails: %d", sent)
		}
	})
}

// Joining is checked like a booking, a client leaves by their link, and
// entries end after their last date.
func TestWaitlist_JoinRulesLeaveAndExpiry(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e, "ana@example.com", "ana")
		c := e.Client()
		for _, bad := range []struct {
			in   map[string]string
			want string
		}{
			{map[string]string{"clientName": "X"}, "Informe um telefone ou e-mail para contato."},
			{map[string]string{"clientName": "X", "clientPhone": "123"}, "Informe um telefone válido, com DDD."},
			{map[string]string{"clientName": "X", "clientEmail": "a@example.com", "partOfDay": "madrugada"}, "Escolha uma parte do dia: manhã, tarde, noite ou qualquer horário."},
			{map[string]string{"clientName": "X", "clientEmail": "a@example.com", "lastDate": "2026-12-14"}, "A lista de espera vale para até 14 dias seguidos."},
			{map[string]string{"clientName": "X", "clientEmail": "a@example.com", "firstDate": "2026-11-20", "lastDate": "2026-11-21"}, "Escolha datas a partir de hoje."},
		} {
			body := map[string]string{"serviceId": s.svc, "professionalId": s.pro, "firstDate": monday, "partOfDay": "qualquer"}
			for k, v := range bad.in {
				body[k] = v
			}
			r := c.Do("POST", "/api/public/profiles/ana/waitlist", body)
			if r.StatusCode != 400 || r.Err(t).Error.Message != bad.want {
				t.Fatalf("%v: %d %s", bad.in, r.StatusCode, r.Body)
			}
		}
		// 14 days is fine; the same entry twice is not.
		tok := s.join(t, e, "10.1.0.1", map[string]string{"clientName": "Primeira", "clientEmail": "primeira@example.com", "lastDate": "2026-12-13"})
		if r := c.Do("POST", "/api/public/profiles/ana/waitlist", map[string]string{"serviceId": s.svc, "professionalId": s.pro, "firstDate": monday,
			"lastDate": "2026-12-13", "partOfDay": "qualquer", "clientName": "Primeira", "clientEmail": "primeira@example.com"}); r.StatusCode != 409 {
			t.Fatalf("twice: %d %s", r.StatusCode, r.Body)
		}
		var view struct{ Status, ServiceName, ProfessionalName, OwnerName string }
		e.Client().Do("GET", "/api/public/waitlist/"+tok, nil).JSON(t, &view)
		if view.Status != "waiting" || view.ServiceName != "Sessão" || view.ProfessionalName != "Bruno" {
			t.Fatalf("entry: %+v", view)
		}
		// Leave: gone from the owner's list; a second leave is a 404.
		if r := e.Client().Do("POST", "/api/public/waitlist/"+tok+"/leave", nil); r.StatusCode != 200 {
			t.Fatalf("leave: %d %s", r.StatusCode, r.Body)
		}
		if r := e.Client().Do("POST", "/api/public/waitlist/"+tok+"/leave", nil); r.StatusCode != 404 {
			t.Fatalf("leave twice: %d %s", r.StatusCode, r.Body)
		}
		if l := s.list(t, monday); len(l) != 0 {
			t.Fatalf("after leaving: %+v", l)
		}
		// Expiry: past its last date an entry is neither listed nor
		// matched, says expired, and the cleanup deletes it.
		tok = s.join(t, e, "10.1.0.2", map[string]string{"clientName": "Segunda", "clientEmail": "segunda@example.com"})
		s.advance(t, e, time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).Sub(e.Clock.Now()))
		e.Client().Do("GET", "/api/public/waitlist/"+tok, nil).JSON(t, &view)
		if view.Status != "expired" {
			t.Fatalf("after its last date: %+v", view)
		}
		if l := s.list(t, monday); len(l) != 0 {
			t.Fatalf("a past day's list: %+v", l)
		}
		// The sweep of every owner keeps it a day longer (no zone is a day
		// behind UTC); the owner's own cleanup, by their today, deletes it.
		count := func() (n int) {
			if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM waitlist_entries`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if err := e.Server.Waitlist.Cleanup(context.Background(), ""); err != nil || count() != 1 {
			t.Fatalf("the sweep the day after: %d %v", count(), err)
		}
		if err := e.Server.Waitlist.Cleanup(context.Background(), s.ownerID); err != nil {
			t.Fatal(err)
		}
		var left int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM waitlist_entries`).Scan(&left); err != nil || left != 0 {
			t.Fatalf("entries after cleanup: %d %v", left, err)
		}
	})
}

// A client's move by their link frees the time they leave, and a removed
// day off frees the whole day: both reach the waitlist.
func TestWaitlist_ClientMoveAndRemovedDayOffOffer(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e, "ana@example.com", "ana")
		s.fill(t, e, s.pro)
		s.join(t, e, "10.1.0.1", map[string]string{"clientName": "Primeira", "clientEmail": "primeira@example.com"})
		// The 10:00 client moves to the next Monday by their link.
		if r := e.Client().Do("POST", "/api/public/bookings/"+s.bookedTokens[s.pro+"10:00"]+"/reschedule", map[string]string{"date": "2026-12-07", "time": "10:00"}); r.StatusCode != 200 {
			t.Fatalf("client move: %d %s", r.StatusCode, r.Body)
		}
		e.RunJobs()
		if l := s.list(t, monday); len(l) != 1 || l[0].LastOffer == nil || l[0].LastOffer.Time != "10:00" {
			t.Fatalf("after the client's move: %+v", l)
		}

		// Bruno is off on 2026-12-14; a client waits for that day anyway;
		// the day off is removed and the day's first time is offered.
		var off struct{ ID string }
		r := s.owner.Do("POST", "/api/days-off", map[string]any{"professionalId": s.pro, "start": "2026-12-14", "end": "2026-12-14", "reason": "Congresso"})
		r.JSON(t, &off)
		if r.StatusCode != 201 {
			t.Fatalf("day off: %d %s", r.StatusCode, r.Body)
		}
		s.join(t, e, "10.1.0.2", map[string]string{"clientName": "Segunda", "clientEmail": "segunda@example.com", "firstDate": "2026-12-14", "lastDate": "2026-12-14"})
		e.RunJobs()
		if l := s.list(t, "2026-12-14"); len(l) != 1 || l[0].LastOffer != nil {
			t.Fatalf("before the day off is removed: %+v", l)
		}
		if r := s.owner.Do("DELETE", "/api/days-off/"+off.ID, nil); r.StatusCode != 200 && r.StatusCode != 204 {
			t.Fatalf("remove day off: %d %s", r.StatusCode, r.Body)
		}
		e.RunJobs()
		if l := s.list(t, "2026-12-14"); len(l) != 1 || l[0].LastOffer == nil || l[0].LastOffer.Time != "09:00" {
			t.Fatalf("after the day off was removed: %+v", l)
		}
	})
}

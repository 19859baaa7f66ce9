package waitlist_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// mailedOffers are the claim tokens of the offer e-mails one client got.
func mailedOffers(t *testing.T, e *servertest.Env, to string) []string {
	t.Helper()
	var out []string
	for _, m := range e.Mails() {
		raw := m.Text()
		if !strings.Contains(raw, "Vagou um hor") || !strings.Contains(raw, "To: "+to) && !strings.Contains(raw, "<"+to+">") {
			continue
		}
		if k := offerRE.FindStringSubmatch(raw); k != nil {
			out = append(out, k[1])
		}
	}
	return out
}

// ownerCancels cancels the shop's appointments at those times in the agenda.
func (s *shop) ownerCancels(t *testing.T, times ...string) {
	t.Helper()
	var appts struct {
		Appointments []struct{ ID, Time, Status string }
	}
	s.owner.Do("GET", "/api/appointments?from="+monday+"&to="+monday, nil).JSON(t, &appts)
	for _, at := range times {
		for _, a := range appts.Appointments {
			if a.Time == at && (a.Status == "confirmed" || a.Status == "awaiting_deposit") {
				if r := s.owner.Do("PATCH", "/api/appointments/"+a.ID, map[string]string{"status": "cancelled"}); r.StatusCode != 200 {
					t.Fatalf("cancel %s: %d %s", at, r.StatusCode, r.Body)
				}
			}
		}
	}
}

// runJobsAtOnce runs the due jobs from several workers at once, as a
// server's job loop and a second instance do.
func runJobsAtOnce(t *testing.T, e *servertest.Env, workers int) {
	t.Helper()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				found, err := e.Server.Queue.RunOnce(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				if !found {
					return
				}
			}
		}()
	}
	wg.Wait()
	e.RunJobs()
}

// One waiting client, one offer: three times of one morning freed together
// (their freed-time jobs run at once) and the owner's offers by hand of
// each leave the entry with one live offer; the owner is told why the
// others cannot go; and claims of every link the client got, at once, book
// one time.
func TestWaitlist_OneEntryHoldsOneLiveOfferAndBooksOnce(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e, "ana@example.com", "ana")
		s.fill(t, e, s.pro)
		s.join(t, e, "10.1.0.1", map[string]string{"clientName": "Única", "clientEmail": "unica@example.com"})
		s.ownerCancels(t, "09:00", "10:00", "11:00")
		runJobsAtOnce(t, e, 3)
		id := s.list(t, monday)[0].ID
		refused := 0
		for _, at := range []string{"09:00", "10:00", "11:00"} {
			r := s.owner.Do("POST", "/api/waitlist/"+id+"/offers", map[string]string{"date": monday, "time": at})
			switch {
			case r.StatusCode == 409 && r.Err(t).Error.Code == "waitlist_offer_open":
				if msg := r.Err(t).Error.Message; !strings.HasPrefix(msg, "Este cliente já tem uma oferta em aberto") {
					t.Fatalf("the refusal says: %s", msg)
				}
				refused++
			case r.StatusCode != 201:
				t.Fatalf("offer by hand %s: %d %s", at, r.StatusCode, r.Body)
			}
		}
		if refused != 3 {
			t.Fatalf("offers by hand refused: %d of 3 (the entry already had a live offer)", refused)
		}
		var live int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM waitlist_offers WHERE entry_id = ? AND claimed_at IS NULL AND expires_at > ?`,
			id, e.Clock.Now().UTC()).Scan(&live); err != nil || live != 1 {
			t.Fatalf("live offers of the entry: %d (%v)", live, err)
		}
		tokens := mailedOffers(t, e, "unica@example.com")
		if len(tokens) != 1 {
			t.Fatalf("offer e-mails: %d", len(tokens))
		}
		// A second live offer as one made before this rule held: the two
		// claimed at once book one time, and the claim ends the other offer.
		var offered string
		if err := e.DB.QueryRowContext(context.Background(), `SELECT offer_time FROM waitlist_offers WHERE entry_id = ?`, id).Scan(&offered); err != nil {
			t.Fatal(err)
		}
		other := "11:00"
		if offered == other {
			other = "09:00"
		}
		token, hash := auth.OpaqueToken()
		now := e.Clock.Now().UTC()
		if _, err := e.DB.ExecContext(context.Background(), `INSERT INTO waitlist_offers (id, entry_id, user_id, professional_id, offer_date, offer_time, token_hash, by_owner, expires_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, FALSE, ?, ?)`, uuid.NewString(), id, s.ownerID, s.pro, monday, other, hash, now.Add(15*time.Minute), now); err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, token)
		codes := claimAtOnce(t, e, tokens)
		if codes[0]+codes[1] != 201+409 {
			t.Fatalf("claims of two offers of one entry: %v, want one 201 and one 409", codes)
		}
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM waitlist_offers WHERE entry_id = ? AND claimed_at IS NULL AND expires_at > ?`,
			id, e.Clock.Now().UTC()).Scan(&live); err != nil || live != 0 {
			t.Fatalf("live offers after the claim: %d (%v)", live, err)
		}
		if n := bookedBy(t, e, s.ownerID, "Única"); n != 1 {
			t.Fatalf("the entry booked %d times", n)
		}
	})
}

// claimAtOnce claims every link at the same moment.
func claimAtOnce(t *testing.T, e *servertest.Env, tokens []string) []int {
	t.Helper()
	codes := make([]int, len(tokens))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, tok := range tokens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := e.Client()
			c.ForwardedFor = fmt.Sprintf("10.3.0.%d", i)
			<-start
			codes[i] = c.Do("POST", "/api/public/waitlist-offers/"+tok+"/claim", nil).StatusCode
		}()
	}
	close(start)
	wg.Wait()
	return codes
}

// bookedBy counts a client's live appointments with the owner.
func bookedBy(t *testing.T, e *servertest.Env, ownerID, client string) int {
	t.Helper()
	var n int
	if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE user_id = ? AND client_name = ? AND status = 'confirmed'`,
		ownerID, client).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A freed time goes to three entries at once, in order of arrival; when
// their offers end unclaimed, to the next ones (never again to the same
// three for that freeing), and then nobody more is messaged.
func TestWaitlist_AFreedTimeIsOfferedToThreeAtATime(t *testing.T) {
	withSMTP(t, func(t *testing.T, e *servertest.Env, smtp *smtptest.Server) {
		s := openShop(t, e, "ana@example.com", "ana")
		s.fill(t, e, s.pro)
		for i := range 5 {
			s.join(t, e, fmt.Sprintf("10.1.0.%d", i), map[string]string{"clientName": fmt.Sprintf("Cliente %d", i), "clientEmail": fmt.Sprintf("c%d@example.com", i)})
			e.Clock.Advance(time.Second)
		}
		e.RunJobs()
		offeredTo := func() string {
			t.Helper()
			e.RunJobs()
			var to []string
			for _, o := range offersIn(t, smtp.Messages()) {
				to = append(to, strings.TrimSuffix(o.to, "@example.com"))
			}
			return strings.Join(to, ",")
		}
		s.ownerCancels(t, "10:00")
		if got := offeredTo(); got != "c0,c1,c2" {
			t.Fatalf("offers of one freed time: %q, want the first three", got)
		}
		s.advance(t, e, 16*time.Minute)
		if got := offeredTo(); got != "c0,c1,c2,c3,c4" {
			t.Fatalf("after those three ended unclaimed: %q, want the next two", got)
		}
		s.advance(t, e, 16*time.Minute)
		if got := offeredTo(); got != "c0,c1,c2,c3,c4" {
			t.Fatalf("after every entry had its turn: %q", got)
		}
	})
}

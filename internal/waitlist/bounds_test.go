package waitlist_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/server/servertest"
)

// tryJoin is a join whose refusal the test reads.
func (s *shop) tryJoin(t *testing.T, e *servertest.Env, ip string, in map[string]string) *servertest.Response {
	t.Helper()
	body := map[string]string{"serviceId": s.svc, "professionalId": s.pro, "firstDate": monday, "lastDate": monday, "partOfDay": "qualquer"}
	for k, v := range in {
		body[k] = v
	}
	c := e.Client()
	c.ForwardedFor = ip
	return c.Do("POST", "/api/public/profiles/"+s.username+"/waitlist", body)
}

// joinMails counts the join confirmations one address got.
func joinMails(e *servertest.Env, to string) int {
	n := 0
	for _, m := range e.Mails() {
		raw := m.Text()
		if strings.Contains(raw, "Sair da lista de espera") && strings.Contains(raw, to) {
			n++
		}
	}
	return n
}

func (s *shop) joinNotices(t *testing.T, e *servertest.Env) int {
	t.Helper()
	var n int
	if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM notifications WHERE user_id = ? AND title = 'Nova entrada na lista de espera'`,
		s.ownerID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The waitlist is no spam cannon (issue 38): one e-mail keeps three
// entries waiting with a practice and gets one join confirmation a day
// however often it joins; a date takes 50 clients and the practice 300,
// each refusal in pt-BR; and the owner hears of a date's joins once, not
// once per entry.
func TestWaitlist_JoinsAreBoundedPerContactDateAndPractice(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e, "ana@example.com", "ana")
		for i, part := range []string{"manha", "tarde", "noite"} {
			s.join(t, e, fmt.Sprintf("10.4.0.%d", i), map[string]string{"clientName": "Vítima", "clientEmail": "vitima@example.com",
				"clientPhone": fmt.Sprintf("(11) 9700%d-0000", i), "partOfDay": part})
		}
		r := s.tryJoin(t, e, "10.4.0.9", map[string]string{"clientName": "Vítima", "clientEmail": "vitima@example.com", "lastDate": "2026-12-01"})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "waitlist_contact_limit" ||
			!strings.HasPrefix(r.Err(t).Error.Message, "Este telefone ou e-mail já está em 3 listas de espera") {
			t.Fatalf("a fourth entry of one e-mail: %d %s", r.StatusCode, r.Body)
		}
		if n := joinMails(e, "vitima@example.com"); n != 1 {
			t.Fatalf("join confirmations to one address in a day: %d, want 1", n)
		}

		// Monday takes 50 clients: 47 more, from ten addresses each.
		for i := range 47 {
			e.Clock.Advance(time.Second) // an order of arrival
			s.join(t, e, fmt.Sprintf("10.5.%d.1", i/10), map[string]string{"clientName": "Cliente", "clientPhone": fmt.Sprintf("(11) 96%03d-0000", i)})
		}
		r = s.tryJoin(t, e, "10.6.0.1", map[string]string{"clientName": "Cliente", "clientPhone": "(11) 95555-0000", "lastDate": "2026-12-02"})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "waitlist_full" || r.Err(t).Error.Message != "A lista de espera de 30/11/2026 está cheia. Escolha outras datas ou tente novamente mais tarde." {
			t.Fatalf("the 51st client of a date: %d %s", r.StatusCode, r.Body)
		}
		if n := s.joinNotices(t, e); n != 1 {
			t.Fatalf("the owner's notices of 50 joins for one date: %d, want 1", n)
		}
		// The owner reads the date's list by pages.
		var page struct {
			Entries []struct{ ClientName, ClientPhone string }
			Total   int
		}
		s.owner.Do("GET", "/api/waitlist?date="+monday, nil).JSON(t, &page)
		if len(page.Entries) != 50 || page.Total != 50 {
			t.Fatalf("the first page: %d entries of %d", len(page.Entries), page.Total)
		}
		s.owner.Do("GET", "/api/waitlist?date="+monday+"&limit=20&offset=40", nil).JSON(t, &page)
		if len(page.Entries) != 10 || page.Total != 50 || page.Entries[0].ClientPhone != "11960370000" {
			t.Fatalf("the third page of 20: %d entries of %d, first %+v", len(page.Entries), page.Total, page.Entries[0])
		}
		for _, q := range []string{"limit=101", "limit=-1", "offset=-1", "limit=dez"} {
			if r := s.owner.Do("GET", "/api/waitlist?date="+monday+"&"+q, nil); r.StatusCode != 400 || !strings.HasPrefix(r.Err(t).Error.Message, "Página inválida") {
				t.Errorf("%s: %d %s", q, r.StatusCode, r.Body)
			}
		}
		// Another date still takes clients, and is its own notice.
		s.join(t, e, "10.6.0.2", map[string]string{"clientName": "Cliente", "clientPhone": "(11) 95555-0000", "firstDate": "2026-12-01", "lastDate": "2026-12-02"})
		if n := s.joinNotices(t, e); n != 2 {
			t.Fatalf("notices after a join for another date: %d, want 2", n)
		}

		// The practice takes 300 in all (written straight in, spread over
		// dates under their own bound).
		ctx := context.Background()
		for i := range 300 - 51 {
			date := fmt.Sprintf("2026-12-%02d", 3+i%10)
			if _, err := e.DB.ExecContext(ctx, `INSERT INTO waitlist_entries (id, user_id, service_id, professional_id, client_name, client_email, client_phone, client_key,
				first_date, last_date, part_of_day, token_hash, created_at) VALUES (?, ?, ?, NULL, 'Cliente', '', ?, ?, ?, ?, 'qualquer', ?, ?)`,
				uuid.NewString(), s.ownerID, s.svc, fmt.Sprintf("+55119%08d", i), fmt.Sprintf("+55119%08d", i), date, date, uuid.NewString(), e.Clock.Now()); err != nil {
				t.Fatal(err)
			}
		}
		r = s.tryJoin(t, e, "10.6.0.3", map[string]string{"clientName": "Cliente", "clientPhone": "(11) 94444-0000", "firstDate": "2026-12-14", "lastDate": "2026-12-14"})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "waitlist_full" || !strings.HasPrefix(r.Err(t).Error.Message, "A lista de espera deste profissional está cheia") {
			t.Fatalf("the practice's 301st entry: %d %s", r.StatusCode, r.Body)
		}
	})
}

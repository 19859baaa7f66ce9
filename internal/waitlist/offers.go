// Offers: what a freed time causes (the job freed.Tell queues), and the one
// function that sends an offer to the client.

package waitlist

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/slots"
)

// RegisterJobs teaches the queue the freed-time job.
func (s *Service) RegisterJobs() {
	s.Queue.Register(freed.Job, func(ctx context.Context, payload []byte) error {
		var t freed.Time
		if err := json.Unmarshal(payload, &t); err != nil {
			return err
		}
		_, err := s.Freed(ctx, t)
		return err
	})
}

// waiting is an entry as matching reads it.
type waiting struct {
	id, ownerID, serviceID, professionalID string // professionalID "" is any
	name, email, phone, key                string
	first, last, part                      string
}

// shape is a service's duration and buffers, in minutes.
type shape struct{ duration, before, after int }

// OffersAtOnce is how many entries one time is offered to at once: the
// next ones get it only when those offers end unclaimed (issue 38: one
// cancellation messaged 300 entries from the owner's number).
const OffersAtOnce = 3

// Freed offers a freed time to the entries that match it, in order of
// arrival: an entry waiting for that date, that service performed by that
// professional (or any), in that part of the day, gets the earliest time
// the slot engine now offers that uses some of the freed stretch — when it
// has no open offer already, was never offered that time, and the time has
// fewer than OffersAtOnce open offers. The first claim books, the others
// are then told the time is gone. While it offered, or left entries
// waiting behind full times, it looks again once the offers it made have
// ended (a job at their expiry), so the next entries get what is still
// free. It returns how many offers it made.
func (s *Service) Freed(ctx context.Context, t freed.Time) (made int, err error) {
	loc, err := profiles.Zone(ctx, s.DB, t.OwnerID)
	if err != nil {
		return 0, err
	}
	now := s.Clock.Now()
	if t.At.IsZero() {
		t.At = now // the turns of this freeing are counted from it
	}
	from := max(t.From, slots.Today(now, loc))
	if t.To < from {
		return 0, nil
	}
	var entries []waiting
	err = db.Each(ctx, s.DB, `SELECT id, service_id, COALESCE(professional_id, ''), client_name, client_email, client_phone, client_key, first_date, last_date, part_of_day
		FROM waitlist_entries w WHERE user_id = ? AND booked_at IS NULL AND deposit_appointment_id IS NULL AND last_date >= ? AND first_date <= ?
		AND (? = '' OR professional_id IS NULL OR professional_id = ?)
		AND NOT EXISTS (SELECT 1 FROM waitlist_offers o WHERE o.entry_id = w.id AND o.claimed_at IS NULL AND o.expires_at > ?)
		ORDER BY created_at, id`, []any{t.OwnerID, from, t.To, t.ProfessionalID, t.ProfessionalID, now}, func(r *sql.Rows) error {
		w := waiting{ownerID: t.OwnerID}
		entries = append(entries, w)
		e := &entries[len(entries)-1]
		return r.Scan(&e.id, &e.serviceID, &e.professionalID, &e.name, &e.email, &e.phone, &e.key, &e.first, &e.last, &e.part)
	})
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	shapes := map[string]*shape{}
	free := map[string][]string{} // the free times of (professional, service, date)
	open := map[string]int{}      // the open offers of (professional, date, time)
	openOf := func(pro, date, at string) (int, error) {
		k := pro + "|" + date + "|" + at
		n, ok := open[k]
		if !ok {
			err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM waitlist_offers WHERE user_id = ? AND professional_id = ? AND offer_date = ? AND offer_time = ?
				AND claimed_at IS NULL AND expires_at > ?`, t.OwnerID, pro, date, at, now.UTC()).Scan(&n)
			if err != nil {
				return 0, err
			}
			open[k] = n
		}
		return n, nil
	}
	made, behind := 0, false
	defer func() {
		if made > 0 || behind {
			err = errors.Join(err, s.lookAgain(ctx, t))
		}
	}()
	for _, e := range entries {
		sh, err := s.shapeOf(ctx, shapes, e.serviceID)
		if err != nil {
			return made, err
		}
		if sh == nil {
			continue // the service is gone
		}
		pro := e.professionalID
		if t.ProfessionalID != "" {
			pro = t.ProfessionalID
		} else if pro == "" {
			pro = booking.Any
		}
		at, date := "", ""
		var offered map[string]bool // the times this entry was offered when this time was freed
		for d := max(from, e.first); d <= min(t.To, e.last) && at == ""; d = nextDate(d) {
			k := pro + "|" + e.serviceID + "|" + d
			times, ok := free[k]
			if !ok {
				if times, err = s.Booking.FreeTimes(ctx, t.OwnerID, pro, e.serviceID, d); err != nil {
					times = nil // no longer performed by them: nothing to offer
				}
				free[k] = times
			}
			for _, tm := range times {
				if !inPart(e.part, tm) || !uses(tm, sh, t) {
					continue
				}
				if offered == nil {
					if offered, err = s.offeredTimes(ctx, e.id, t.At); err != nil {
						return made, err
					}
				}
				if offered[d+" "+tm] {
					continue // its turn at this freed time came and went
				}
				n, err := openOf(pro, d, tm)
				if err != nil {
					return made, err
				}
				if n >= OffersAtOnce {
					behind = true
					continue
				}
				at, date = tm, d
				break
			}
		}
		if at == "" {
			continue
		}
		freedAt := t.At
		if _, err := s.offer(ctx, e, pro, date, at, &freedAt, false); errors.Is(err, errOfferOpen) || errors.Is(err, errEntryTaken) {
			continue // offered meanwhile (another freed time at once), or booked
		} else if err != nil {
			return made, err
		}
		open[pro+"|"+date+"|"+at]++
		made++
	}
	return made, nil
}

// offeredTimes are the "date time"s an entry was offered when this time
// was freed (a time freed again later is a new turn for everyone), and
// those it claimed (one whose deposit it let expire is not offered it again).
func (s *Service) offeredTimes(ctx context.Context, entryID string, freedAt time.Time) (map[string]bool, error) {
	out := map[string]bool{}
	err := db.Each(ctx, s.DB, `SELECT offer_date, offer_time, freed_at, claimed_at IS NOT NULL FROM waitlist_offers WHERE entry_id = ?`, []any{entryID}, func(r *sql.Rows) error {
		var d, tm string
		var at sql.NullTime
		var claimed bool
		if err := r.Scan(&d, &tm, &at, &claimed); err != nil {
			return err
		}
		if claimed || at.Valid && at.Time.Sub(freedAt).Abs() < time.Millisecond { // PostgreSQL keeps microseconds
			out[d+" "+tm] = true
		}
		return nil
	})
	return out, err
}

// lookAgain queues the freed time again for when the offers made now end
// (the owner's minutes, and one more): the times nobody claimed then go to
// the next entries.
func (s *Service) lookAgain(ctx context.Context, t freed.Time) error {
	minutes, err := s.OfferMinutes(ctx, s.DB, t.OwnerID)
	if err != nil {
		return err
	}
	return s.Queue.Enqueue(ctx, s.DB, jobs.About{UserID: t.OwnerID}, freed.Job, t, s.Clock.Now().Add(time.Duration(minutes+1)*time.Minute), 5)
}

// uses reports whether a start time's appointment (with the service's
// buffers) takes some of the freed stretch of the day.
func uses(at string, sh *shape, t freed.Time) bool {
	m, err := slots.ParseHHMM(at)
	if err != nil {
		return false
	}
	return m-sh.before < t.End && m+sh.duration+sh.after > t.Start
}

func (s *Service) shapeOf(ctx context.Context, cache map[string]*shape, serviceID string) (*shape, error) {
	if sh, ok := cache[serviceID]; ok {
		return sh, nil
	}
	var sh shape
	err := s.DB.QueryRowContext(ctx, `SELECT duration, buffer_before, buffer_after FROM services WHERE id = ?`, serviceID).Scan(&sh.duration, &sh.before, &sh.after)
	if err == sql.ErrNoRows {
		cache[serviceID] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cache[serviceID] = &sh
	return &sh, nil
}

func nextDate(d string) string {
	t, err := time.Parse("2006-01-02", d)
	if err != nil {
		return "9999-12-31"
	}
	return t.AddDate(0, 0, 1).Format("2006-01-02")
}

// OfferMinutes is how long the owner's claim links book their time.
func (s *Service) OfferMinutes(ctx context.Context, q db.Querier, ownerID string) (int, error) {
	var m int
	err := q.QueryRowContext(ctx, `SELECT waitlist_offer_minutes FROM profiles WHERE id = ?`, ownerID).Scan(&m)
	if err == sql.ErrNoRows || m <= 0 {
		return DefaultOfferMinutes, nil
	}
	return m, err
}

// errOfferOpen refuses a second live offer to one entry.
var errOfferOpen = httpx.NewError(http.StatusConflict, "waitlist_offer_open",
	"Este cliente já tem uma oferta em aberto. Aguarde a resposta ou o fim do prazo do link para oferecer outro horário.")

// offer writes an offer of a time to an entry and sends it, in one
// transaction: the offer exists exactly when its message is queued. An
// entry holds one live offer at most (issue 38: one waiting client offered
// four freed times booked several of them): the entry's row is taken
// first — an UPDATE holds it on PostgreSQL until the end of the
// transaction, and SQLite has one writer — and an entry already booked
// (errEntryTaken) or with a live offer (errOfferOpen) gets none.
func (s *Service) offer(ctx context.Context, e waiting, pro, date, at string, freedAt *time.Time, byOwner bool) (*OwnerOffer, error) {
	var out *OwnerOffer
	err := s.DB.OwnerTx(ctx, e.ownerID, func(tx *db.Tx) error {
		now := s.Clock.Now()
		res, err := tx.ExecContext(ctx, `UPDATE waitlist_entries SET token_hash = token_hash WHERE id = ? AND booked_at IS NULL AND deposit_appointment_id IS NULL`, e.id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return cmp.Or[error](err, errEntryTaken)
		}
		var live int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM waitlist_offers WHERE entry_id = ? AND claimed_at IS NULL AND expires_at > ?`,
			e.id, now.UTC()).Scan(&live); err != nil {
			return err
		}
		if live > 0 {
			return errOfferOpen
		}
		minutes, err := s.OfferMinutes(ctx, tx, e.ownerID)
		if err != nil {
			return err
		}
		token, hash := auth.OpaqueToken()
		expires := now.Add(time.Duration(minutes) * time.Minute)
		var fa any
		if freedAt != nil && !freedAt.IsZero() {
			fa = freedAt.UTC()
		}
		id := uuid.NewString()
		if _, err := tx.ExecContext(ctx, `INSERT INTO waitlist_offers (id, entry_id, user_id, professional_id, offer_date, offer_time, token_hash, by_owner, expires_at, freed_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, e.id, e.ownerID, pro, date, at, hash, byOwner, expires.UTC(), fa, now); err != nil {
			return err
		}
		by, err := s.send(ctx, tx, e, id, outgoing{token: token, date: date, time: at, pro: pro, minutes: minutes})
		out = &OwnerOffer{Date: date, Time: at, ExpiresAt: expires.UTC(), Status: "open", ByOwner: byOwner, Sent: len(by) > 0, Channels: by}
		return err
	})
	return out, err
}

// outgoing is an offer to send.
type outgoing struct {
	token, date, time, pro string
	minutes                int
}

// The channels an offer goes by, as the owner's list names them.
const (
	ChannelWhatsApp = "whatsapp"
	ChannelEmail    = "email"
	ChannelPush     = "push"
)

// send delivers an offer to its client: the one place an offer leaves
// Agendei. By WhatsApp from the owner's number when it can carry it (the
// client gave a phone; issue 28, point 2: the message job mints the link
// it carries, and e-mails the offer instead if WhatsApp fails for good),
// else by e-mail; and besides either, to the client's subscribed browsers
// by push (issue 41 §4), with a claim link of its own. A client none of
// them reaches sees nothing; the owner's list shows the offer, to pass on
// by hand. It reports the channels the offer went by.
func (s *Service) send(ctx context.Context, tx *db.Tx, e waiting, offerID string, o outgoing) ([]string, error) {
	by := []string{}
	if s.WhatsApp != nil && e.phone != "" {
		queued, err := s.WhatsApp.QueueOffer(ctx, tx, e.ownerID, offerID, e.key, e.phone)
		if err != nil {
			return nil, err
		}
		if queued {
			by = append(by, ChannelWhatsApp)
		}
	}
	if len(by) == 0 && s.Mailer != nil && e.email != "" {
		if err := s.sendEmail(ctx, tx, e, o); err != nil {
			return nil, err
		}
		by = append(by, ChannelEmail)
	}
	pushed, err := s.pushOffer(ctx, tx, e, offerID, o)
	if err != nil {
		return nil, err
	}
	if pushed {
		by = append(by, ChannelPush)
	}
	return by, nil
}

// pushOffer sends the offer to the client's subscribed browsers, whatever
// else carries it. The notification's claim link is its own
// (waitlist_offers.push_token_hash): WhatsApp's message mints the offer's
// link afresh as it sends, and an e-mail sent instead of a failed WhatsApp
// message mints another, each leaving the one before dead — a link in a
// notification, already on the phone, must keep claiming. Either link
// claims the one offer, and the first claim wins.
func (s *Service) pushOffer(ctx context.Context, tx *db.Tx, e waiting, offerID string, o outgoing) (bool, error) {
	if s.Push == nil {
		return false, nil
	}
	var ownerName, service string
	if err := tx.QueryRowContext(ctx, `SELECT p.name, s.name FROM profiles p JOIN services s ON s.id = ? WHERE p.id = ?`,
		e.serviceID, e.ownerID).Scan(&ownerName, &service); err != nil {
		return false, err
	}
	token, hash := auth.OpaqueToken()
	pushed, err := s.Push.PushOffer(ctx, tx, PushedOffer{OwnerID: e.ownerID, ClientKey: e.key, OfferID: offerID,
		Title: fmt.Sprintf("Vagou um horário: %s em %s às %s", service, brfmt.Date(o.date), o.time),
		Body:  fmt.Sprintf("%s: confirme nos próximos %s para ficar com ele.", ownerName, brfmt.Minutes(o.minutes)),
		URL:   s.BaseURL + "/lista-de-espera/oferta/" + token, Until: s.Clock.Now().Add(time.Duration(o.minutes) * time.Minute)})
	if err != nil || !pushed {
		return false, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE waitlist_offers SET push_token_hash = ? WHERE id = ?`, hash, offerID)
	return err == nil, err
}

// sendEmail queues an offer's e-mail.
func (s *Service) sendEmail(ctx context.Context, tx *db.Tx, e waiting, o outgoing) error {
	var ownerName, service, proName string
	if err := tx.QueryRowContext(ctx, `SELECT p.name, s.name, COALESCE((SELECT name FROM professionals WHERE id = ?), '') FROM profiles p JOIN services s ON s.id = ? WHERE p.id = ?`,
		o.pro, e.serviceID, e.ownerID).Scan(&ownerName, &service, &proName); err != nil {
		return err
	}
	if proName == "" {
		proName = "Qualquer profissional"
	}
	msg, err := mail.Compose(e.email, mail.Content{
		Subject:  fmt.Sprintf("Vagou um horário: %s em %s às %s", service, brfmt.Date(o.date), o.time),
		Greeting: fmt.Sprintf("Olá, %s!", e.name),
		Paragraphs: []string{
			fmt.Sprintf("Abriu um horário com %s que combina com a sua lista de espera.", ownerName),
			fmt.Sprintf("Para ficar com ele, confirme pelo botão abaixo nos próximos %s. O horário fica com quem confirmar primeiro.", brfmt.Minutes(o.minutes)),
		},
		Details: []mail.Detail{{Label: "Profissional", Value: proName}, {Label: "Serviço", Value: service},
			{Label: "Data", Value: brfmt.LongDate(o.date)}, {Label: "Horário", Value: o.time}},
		Button: &mail.Link{Label: "Quero este horário", URL: s.BaseURL + "/lista-de-espera/oferta/" + o.token},
		Footer: "Este link é pessoal: não o compartilhe. Se não quiser o horário, ignore este e-mail: você continua na lista de espera.",
	})
	if err != nil {
		return err
	}
	return s.Mailer.QueueToClient(ctx, tx, jobs.About{UserID: e.ownerID, ClientKey: e.key}, msg)
}

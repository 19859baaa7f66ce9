// The owner's side: each day's waitlist in the agenda, an offer by hand,
// and how long a claim link lasts.

package waitlist

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/slots"
)

var (
	errDay        = httpx.Validation("Data inválida.")
	errNoEntry    = httpx.NewError(http.StatusNotFound, "not_found", "Entrada da lista de espera não encontrada.")
	errOfferDate  = httpx.Validation("Escolha uma data entre as datas que o cliente pediu.")
	errNotFree    = httpx.NewError(http.StatusConflict, "slot_unavailable", "Esse horário não está livre para este serviço. Escolha um dos horários livres.")
	errEntryTaken = httpx.NewError(http.StatusConflict, "waitlist_booked", "Este cliente já conseguiu um horário pela lista de espera.")
	errMinutes    = httpx.Validation("O prazo para confirmar deve ser de 5 a 1440 minutos.")
)

// OwnerEntry is one entry of a day's waitlist, as the owner sees it.
type OwnerEntry struct {
	ID               string      `json:"id"`
	ClientName       string      `json:"clientName"`
	ClientEmail      string      `json:"clientEmail"`
	ClientPhone      string      `json:"clientPhone"`
	ClientKey        string      `json:"clientKey"`
	ServiceID        string      `json:"serviceId"`
	ServiceName      string      `json:"serviceName"`
	ProfessionalID   *string     `json:"professionalId"` // nil: any professional
	ProfessionalName string      `json:"professionalName"`
	FirstDate        string      `json:"firstDate"`
	LastDate         string      `json:"lastDate"`
	PartOfDay        string      `json:"partOfDay"`
	CreatedAt        time.Time   `json:"createdAt"`
	LastOffer        *OwnerOffer `json:"lastOffer"`
	// Channels are how an offer made now would reach the client, as send
	// chooses them: "whatsapp" or "email", and "push" besides either (a
	// browser of theirs subscribed). Empty: nothing reaches them, the owner
	// passes the offer on by hand.
	Channels []string `json:"channels"`
}

// OwnerOffer is an offer as the owner sees it.
type OwnerOffer struct {
	Date      string    `json:"date"`
	Time      string    `json:"time"`
	ExpiresAt time.Time `json:"expiresAt"`
	// Status: open, expired, claimed, or awaiting_deposit (claimed, its
	// booking's deposit not paid yet: the entry keeps its place).
	Status  string `json:"status"`
	ByOwner bool   `json:"byOwner"`
	// Sent says a message went to the client (false: no channel reached
	// them); Channels says which: "whatsapp" (not failed at Meta), "email"
	// (instead of WhatsApp, or after it failed), "push".
	Sent     bool     `json:"sent"`
	Channels []string `json:"channels"`
}

// DayPage is how many entries of a date's waitlist one answer holds unless
// asked for fewer; MaxDayPage the most it holds (issue 38: a date's list
// was one 4.1 MB answer).
const (
	DayPage    = 50
	MaxDayPage = 100
)

var errPage = httpx.Validation(fmt.Sprintf("Página inválida: informe até %d entradas por página, a partir da posição 0.", MaxDayPage))

// listed keeps on the owner's list the entries still waiting: not booked,
// or claimed with their deposit still pending (a paid one has its time).
const listed = `(w.deposit_appointment_id IS NULL OR EXISTS (SELECT 1 FROM deposits d WHERE d.appointment_id = w.deposit_appointment_id AND d.state = 'pending'))`

// ForDay is a page of the waitlist of a date: the entries waiting for it,
// in order of arrival from offset, at most limit (0: DayPage), each with
// its latest offer; and how many wait in all.
func (s *Service) ForDay(ctx context.Context, ownerID, date string, limit, offset int) ([]OwnerEntry, int, error) {
	if _, err := slots.ParseDate(date); err != nil {
		return nil, 0, errDay
	}
	if limit == 0 {
		limit = DayPage
	}
	if limit < 0 || limit > MaxDayPage || offset < 0 {
		return nil, 0, errPage
	}
	loc, err := profiles.Zone(ctx, s.DB, ownerID)
	if err != nil {
		return nil, 0, err
	}
	out := []OwnerEntry{}
	if date < slots.Today(s.Clock.Now(), loc) {
		return out, 0, nil // nobody waits for a day gone
	}
	var total int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM waitlist_entries w WHERE user_id = ? AND booked_at IS NULL AND first_date <= ? AND last_date >= ? AND `+listed,
		ownerID, date, date).Scan(&total); err != nil {
		return nil, 0, err
	}
	now := s.Clock.Now()
	err = db.Each(ctx, s.DB, `SELECT w.id, w.client_name, w.client_email, w.client_phone, w.client_key, w.service_id, s.name, w.professional_id, COALESCE(p.name, ''),
		w.first_date, w.last_date, w.part_of_day, w.created_at, o.offer_date, o.offer_time, o.expires_at, o.claimed_at, o.by_owner,
		EXISTS (SELECT 1 FROM whatsapp_messages m WHERE m.offer_id = o.id AND m.state NOT IN ('failed', 'unknown')), o.push_token_hash IS NOT NULL, w.deposit_appointment_id IS NOT NULL
		FROM waitlist_entries w JOIN services s ON s.id = w.service_id LEFT JOIN professionals p ON p.id = w.professional_id
		LEFT JOIN waitlist_offers o ON o.id = (SELECT id FROM waitlist_offers WHERE entry_id = w.id ORDER BY created_at DESC, id LIMIT 1)
		WHERE w.user_id = ? AND w.booked_at IS NULL AND w.first_date <= ? AND w.last_date >= ? AND `+listed+` ORDER BY w.created_at, w.id LIMIT ? OFFSET ?`,
		[]any{ownerID, date, date, limit, offset}, func(r *sql.Rows) error {
			var e OwnerEntry
			var pro, oDate, oTime sql.NullString
			var expires, claimed sql.NullTime
			var byOwner sql.NullBool
			var byWhatsApp, byPush sql.NullBool
			var awaitingDeposit bool
			if err := r.Scan(&e.ID, &e.ClientName, &e.ClientEmail, &e.ClientPhone, &e.ClientKey, &e.ServiceID, &e.ServiceName, &pro, &e.ProfessionalName,
				&e.FirstDate, &e.LastDate, &e.PartOfDay, &e.CreatedAt, &oDate, &oTime, &expires, &claimed, &byOwner, &byWhatsApp, &byPush, &awaitingDeposit); err != nil {
				return err
			}
			if pro.Valid {
				e.ProfessionalID = &pro.String
			}
			e.CreatedAt = e.CreatedAt.UTC()
			if oDate.Valid {
				o := &OwnerOffer{Date: oDate.String, Time: oTime.String, ExpiresAt: expires.Time.UTC(), Status: "open", ByOwner: byOwner.Bool, Channels: []string{}}
				// As send chose them: WhatsApp, else (or once it failed) the
				// e-mail; and push besides.
				if byWhatsApp.Bool {
					o.Channels = append(o.Channels, ChannelWhatsApp)
				} else if e.ClientEmail != "" && s.Mailer != nil {
					o.Channels = append(o.Channels, ChannelEmail)
				}
				if byPush.Bool {
					o.Channels = append(o.Channels, ChannelPush)
				}
				o.Sent = len(o.Channels) > 0
				if claimed.Valid && awaitingDeposit {
					o.Status = "awaiting_deposit" // listed: its deposit is still pending
				} else if claimed.Valid {
					o.Status = "claimed"
				} else if !now.Before(o.ExpiresAt) {
					o.Status = "expired"
				}
				e.LastOffer = o
			}
			out = append(out, e)
			return nil
		})
	if err != nil {
		return nil, 0, err
	}
	return out, total, s.channels(ctx, ownerID, out)
}

// channels fills in how an offer made now would reach each entry's
// client, as send would choose: WhatsApp when the owner's number (or the
// Agendei number) can carry it to their phone, else e-mail; push besides,
// when a browser of theirs is subscribed (one read for the page).
func (s *Service) channels(ctx context.Context, ownerID string, entries []OwnerEntry) error {
	var subscribed map[string]bool
	if s.Push != nil && len(entries) > 0 {
		var err error
		if subscribed, err = s.Push.SubscribedClients(ctx, s.DB, ownerID); err != nil {
			return err
		}
	}
	byWhatsApp := map[string]bool{} // per phone: the page asks once for each
	for i := range entries {
		e := &entries[i]
		e.Channels = []string{}
		if s.WhatsApp != nil && e.ClientPhone != "" {
			ok, seen := byWhatsApp[e.ClientPhone]
			if !seen {
				var err error
				if ok, err = s.WhatsApp.CanOffer(ctx, s.DB, ownerID, e.ClientPhone); err != nil {
					return err
				}
				byWhatsApp[e.ClientPhone] = ok
			}
			if ok {
				e.Channels = append(e.Channels, ChannelWhatsApp)
			}
		}
		if len(e.Channels) == 0 && s.Mailer != nil && e.ClientEmail != "" {
			e.Channels = append(e.Channels, ChannelEmail)
		}
		if subscribed[e.ClientKey] {
			e.Channels = append(e.Channels, ChannelPush)
		}
	}
	return nil
}

// HandInput is an owner's offer by hand.
type HandInput struct {
	Date           string `json:"date"`
	Time           string `json:"time"`
	ProfessionalID string `json:"professionalId"` // "": the entry's own (or any)
}

// OfferByHand offers a free time to an entry, as a freed time would: the
// same message, the same claim.
func (s *Service) OfferByHand(ctx context.Context, ownerID, entryID string, in HandInput) (*OwnerOffer, error) {
	var e waiting
	var booked sql.NullTime
	var claimed bool
	err := s.DB.QueryRowContext(ctx, `SELECT id, user_id, service_id, COALESCE(professional_id, ''), client_name, client_email, client_phone, client_key,
		first_date, last_date, part_of_day, booked_at, deposit_appointment_id IS NOT NULL FROM waitlist_entries WHERE id = ? AND user_id = ?`, entryID, ownerID).Scan(
		&e.id, &e.ownerID, &e.serviceID, &e.professionalID, &e.name, &e.email, &e.phone, &e.key, &e.first, &e.last, &e.part, &booked, &claimed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoEntry
	}
	if err != nil {
		return nil, err
	}
	if booked.Valid || claimed {
		return nil, errEntryTaken
	}
	if _, err := slots.ParseDate(in.Date); err != nil || in.Date < e.first || in.Date > e.last {
		return nil, errOfferDate
	}
	pro := in.ProfessionalID
	if pro == "" {
		pro = e.professionalID
	}
	if pro == "" {
		pro = booking.Any
	}
	if e.professionalID != "" && pro != e.professionalID {
		return nil, errChoice
	}
	times, err := s.Booking.FreeTimes(ctx, ownerID, pro, e.serviceID, in.Date)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(times, in.Time) {
		return nil, errNotFree
	}
	return s.offer(ctx, e, pro, in.Date, in.Time, nil, true)
}

// Settings are the owner's waitlist settings.
type Settings struct {
	OfferMinutes int `json:"offerMinutes"`
}

// GetSettings reads the owner's settings.
func (s *Service) GetSettings(ctx context.Context, ownerID string) (*Settings, error) {
	m, err := s.OfferMinutes(ctx, s.DB, ownerID)
	return &Settings{OfferMinutes: m}, err
}

// SaveSettings changes them; offers already sent keep their deadline.
func (s *Service) SaveSettings(ctx context.Context, ownerID string, in Settings) (*Settings, error) {
	if in.OfferMinutes < 5 || in.OfferMinutes > 1440 {
		return nil, errMinutes
	}
	if err := s.DB.OwnerExec(ctx, ownerID, errNoEntry, `UPDATE profiles SET waitlist_offer_minutes = ? WHERE id = ?`, in.OfferMinutes, ownerID); err != nil {
		return nil, err
	}
	return &in, nil
}

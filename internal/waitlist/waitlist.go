// Package waitlist is issue 28's point 3: a client who finds no free time
// for a service joins the owner's waitlist for some dates and a part of the
// day; when time frees up (freed.Tell, queued by every place that frees
// time) the matching entries are offered it in order of arrival, each with
// a claim link valid for the owner's minutes, and a claim books through the
// one booking path (booking.BookThen, under booking.Hold): the first claim
// wins, the later ones are told the time is gone and stay on the list.
package waitlist

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/slots"
)

// Service keeps the waitlist.
type Service struct {
	DB      *db.DB
	Clock   clock.Clock
	Queue   *jobs.Queue
	Mailer  *mail.Mailer // nil: no e-mail
	Booking *booking.Service
	Notes   *notifications.Service
	BaseURL string
	// WhatsApp sends offers from the owner's number when it can (nil: by
	// e-mail only).
	WhatsApp OfferSender
	// Push sends offers to the client's subscribed browsers too (nil:
	// none); see OfferPusher.
	Push OfferPusher
}

// OfferPusher queues an offer's push notification to the client's
// subscribed browsers (internal/push, through the server's wiring) in the
// transaction that writes the offer, and reports whether it queued one.
type OfferPusher interface {
	PushOffer(ctx context.Context, tx *db.Tx, o PushedOffer) (bool, error)
	// SubscribedClients are the owner's clients (by client key) with a
	// browser subscribed: the owner's list says push reaches them.
	SubscribedClients(ctx context.Context, q db.Querier, ownerID string) (map[string]bool, error)
}

// PushedOffer is an offer as a push notification says it.
type PushedOffer struct {
	OwnerID, ClientKey, OfferID string
	Title, Body, URL            string
	Until                       time.Time
}

// OfferSender queues an offer's WhatsApp message in the transaction that
// writes the offer, and reports whether it did (false: not connected,
// template not approved, no phone — the e-mail goes).
type OfferSender interface {
	QueueOffer(ctx context.Context, tx *db.Tx, ownerID, offerID, clientKey, clientPhone string) (bool, error)
	// CanOffer reports whether an offer to this phone would go by WhatsApp.
	CanOffer(ctx context.Context, q db.Querier, ownerID, clientPhone string) (bool, error)
}

const (
	// MaxDays is the longest range of dates one entry waits for.
	MaxDays = 14
	// DefaultOfferMinutes is how long a claim link books its time, unless
	// the owner set otherwise.
	DefaultOfferMinutes = 15
)

// parts are the parts of the day an entry waits for: [start, end) minutes.
var parts = map[string][2]int{"manha": {0, 12 * 60}, "tarde": {12 * 60, 18 * 60}, "noite": {18 * 60, 24 * 60}, "qualquer": {0, 24 * 60}}

// partLabel is a part of the day as the client reads it.
var partLabel = map[string]string{"manha": "manhã", "tarde": "tarde", "noite": "noite", "qualquer": "qualquer horário"}

// inPart reports whether a start time ("HH:MM") falls in a part of the day.
func inPart(part, at string) bool {
	m, err := slots.ParseHHMM(at)
	p, ok := parts[part]
	return err == nil && ok && m >= p[0] && m < p[1]
}

var (
	errProfile  = httpx.NewError(http.StatusNotFound, "profile_not_found", "Perfil não encontrado")
	errChoice   = httpx.Validation("Profissional ou serviço indisponível. Recarregue a página e escolha novamente.")
	errPart     = httpx.Validation("Escolha uma parte do dia: manhã, tarde, noite ou qualquer horário.")
	errDates    = httpx.Validation("Informe datas válidas: a data final igual ou posterior à inicial.")
	errSpan     = httpx.Validation(fmt.Sprintf("A lista de espera vale para até %d dias seguidos.", MaxDays))
	errPastDate = httpx.Validation("Escolha datas a partir de hoje.")
	errAlready  = httpx.NewError(http.StatusConflict, "waitlist_already", "Você já está na lista de espera para essas datas.")
	errEntry    = httpx.NewError(http.StatusNotFound, "not_found", "Link da lista de espera inválido ou você já saiu da lista.")
)

// JoinInput is a client's entry.
type JoinInput struct {
	ServiceID      string `json:"serviceId"`
	ProfessionalID string `json:"professionalId"` // an id, or booking.Any
	FirstDate      string `json:"firstDate"`
	LastDate       string `json:"lastDate"`
	PartOfDay      string `json:"partOfDay"` // manha, tarde, noite, qualquer
	ClientName     string `json:"clientName"`
	ClientEmail    string `json:"clientEmail"`
	ClientPhone    string `json:"clientPhone"`
}

// Entry is what the client's link shows of their entry.
type Entry struct {
	OwnerName        string `json:"ownerName"`
	Username         string `json:"username"`
	ServiceName      string `json:"serviceName"`
	ProfessionalName string `json:"professionalName"` // "" for any professional
	FirstDate        string `json:"firstDate"`
	LastDate         string `json:"lastDate"`
	PartOfDay        string `json:"partOfDay"`
	// Status: waiting, booked (a claim booked it) or expired (past its last date).
	Status string `json:"status"`
}

// Joined is the answer to a join: the entry and its private token (the
// page shows the link to leave; the e-mail carries it too).
type Joined struct {
	Entry
	Token string `json:"token"`
	// Notice is how the client hears of a freed time, as send will choose
	// it: "whatsapp", "email", "push" (neither of those, but a browser of
	// theirs is subscribed), or "owner" (nothing carries it: the practice
	// passes it on from its list).
	Notice string `json:"notice"`
}

// noticeFor is the channel a freed time's offer will take to this client,
// in send's order: WhatsApp when it can carry it, else e-mail, else push
// alone when a browser of theirs is subscribed, else the owner by hand.
func (s *Service) noticeFor(ctx context.Context, q db.Querier, ownerID, email, phone, key string) (string, error) {
	if s.WhatsApp != nil && phone != "" {
		if ok, err := s.WhatsApp.CanOffer(ctx, q, ownerID, phone); err != nil || ok {
			return "whatsapp", err
		}
	}
	if s.Mailer != nil && email != "" {
		return "email", nil
	}
	if s.Push != nil {
		subscribed, err := s.Push.SubscribedClients(ctx, q, ownerID)
		if err != nil || subscribed[key] {
			return ChannelPush, err
		}
	}
	return "owner", nil
}

// owner is the owner behind a public username.
func (s *Service) owner(ctx context.Context, username string) (id, name string, loc *time.Location, err error) {
	var zone string
	err = s.DB.QueryRowContext(ctx, `SELECT id, name, time_zone FROM profiles WHERE public_username = ?`, profiles.NormalizeUsername(username)).Scan(&id, &name, &zone)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil, errProfile
	}
	if err != nil {
		return "", "", nil, err
	}
	loc, err = profiles.Zone(ctx, s.DB, id)
	return id, name, loc, err
}

// Join puts a client on an owner's waitlist.
func (s *Service) Join(ctx context.Context, username string, in JoinInput) (*Joined, error) {
	c, err := booking.ValidateContact(in.ClientName, in.ClientEmail, in.ClientPhone)
	if err != nil {
		return nil, err
	}
	if _, ok := parts[in.PartOfDay]; !ok {
		return nil, errPart
	}
	if in.LastDate == "" {
		in.LastDate = in.FirstDate
	}
	first, err1 := slots.ParseDate(in.FirstDate)
	last, err2 := slots.ParseDate(in.LastDate)
	if err1 != nil || err2 != nil || last.Before(first) {
		return nil, errDates
	}
	if last.Sub(first) >= MaxDays*24*time.Hour {
		return nil, errSpan
	}
	ownerID, ownerName, loc, err := s.owner(ctx, username)
	if err != nil {
		return nil, err
	}
	if in.FirstDate < slots.Today(s.Clock.Now(), loc) {
		return nil, errPastDate
	}
	if in.ProfessionalID == "" {
		in.ProfessionalID = booking.Any
	}
	ok, err := s.Booking.Performs(ctx, ownerID, in.ProfessionalID, in.ServiceID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errChoice
	}
	var pro any
	if in.ProfessionalID != booking.Any {
		pro = in.ProfessionalID
	}
	key := booking.ClientKey(c.ClientPhone, c.ClientEmail)
	token, hash := auth.OpaqueToken()
	now := s.Clock.Now()
	out := &Joined{Token: token}
	today := slots.Today(now, loc)
	// One practice's joins take turns under the owner's lock (OwnerTx), so
	// a burst cannot pass the bounds.
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var dup int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM waitlist_entries WHERE user_id = ? AND client_key = ? AND service_id = ?
			AND COALESCE(professional_id, '') = COALESCE(?, '') AND first_date = ? AND last_date = ? AND part_of_day = ? AND booked_at IS NULL`,
			ownerID, key, in.ServiceID, pro, in.FirstDate, in.LastDate, in.PartOfDay).Scan(&dup); err != nil {
			return err
		}
		if dup > 0 {
			return errAlready
		}
		if err := s.bounded(ctx, tx, ownerID, c.ClientEmail, c.ClientPhone, in.FirstDate, in.LastDate, today); err != nil {
			return err
		}
		id := uuid.NewString()
		if _, err := tx.ExecContext(ctx, `INSERT INTO waitlist_entries (id, user_id, service_id, professional_id, client_name, client_email, client_phone, client_key,
			first_date, last_date, part_of_day, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, ownerID, in.ServiceID, pro, c.ClientName, c.ClientEmail, c.ClientPhone, key, in.FirstDate, in.LastDate, in.PartOfDay, hash, now); err != nil {
			return err
		}
		e, err := s.entry(ctx, tx, hash)
		if err != nil {
			return err
		}
		out.Entry = *e
		if out.Notice, err = s.noticeFor(ctx, tx, ownerID, c.ClientEmail, c.ClientPhone, key); err != nil {
			return err
		}
		// The owner hears of a date's joins once a day (a burst of joins is
		// one notice, not one each); the day's list shows them all.
		if first, err := s.once(ctx, tx, ownerID, "date:"+e.FirstDate, today); err != nil {
			return err
		} else if first {
			if err := s.Notes.AboutClient(ctx, tx, ownerID, key, "Nova entrada na lista de espera",
				fmt.Sprintf("%s entrou na lista de espera de %s (%s, %s). Outras entradas para %s hoje não geram novo aviso: veja a lista de espera na agenda.",
					c.ClientName, e.ServiceName, dates(e.FirstDate, e.LastDate), partLabel[e.PartOfDay], brfmt.Date(e.FirstDate))); err != nil {
				return err
			}
		}
		// An e-mail gets one join confirmation per practice per day: later
		// joins are kept, and send nothing.
		if s.Mailer == nil || c.ClientEmail == "" {
			return nil
		}
		if first, err := s.once(ctx, tx, ownerID, "email:"+c.ClientEmail, today); err != nil || !first {
			return err
		}
		msg, err := mail.Compose(c.ClientEmail, mail.Content{
			Subject:  "Você está na lista de espera de " + ownerName,
			Greeting: fmt.Sprintf("Olá, %s!", c.ClientName),
			Paragraphs: []string{fmt.Sprintf("Você entrou na lista de espera de %s para %s (%s, %s). Se um horário vagar, avisamos por aqui, por ordem de chegada.",
				ownerName, e.ServiceName, dates(e.FirstDate, e.LastDate), partLabel[e.PartOfDay])},
			Button: &mail.Link{Label: "Sair da lista de espera", URL: s.BaseURL + "/lista-de-espera/" + token},
			Footer: "Este link é pessoal: não o compartilhe. Se você não pediu para entrar na lista, use o botão acima para sair.",
		})
		if err != nil {
			return err
		}
		return s.Mailer.QueueToClient(ctx, tx, jobs.About{UserID: ownerID, ClientKey: key}, msg)
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errProfile // the account was deleted meanwhile
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// The waitlist's bounds (issue 38: a script put 10,002 entries on one
// date, and one cancellation then messaged 300 of them): per practice, per
// date, and per phone or e-mail — besides the per-IP limit of joins.
const (
	// MaxPerDate is how many clients wait for one date of a practice.
	MaxPerDate = 50
	// MaxPerContact is how many entries one phone or e-mail keeps waiting
	// with a practice.
	MaxPerContact = 3
	// MaxPerOwner is how many entries wait with a practice in all.
	MaxPerOwner = 300
)

var (
	errContactMax = httpx.NewError(http.StatusConflict, "waitlist_contact_limit",
		fmt.Sprintf("Este telefone ou e-mail já está em %d listas de espera deste profissional. Saia de uma delas pelo link recebido para entrar em outra.", MaxPerContact))
	errOwnerFull = httpx.NewError(http.StatusConflict, "waitlist_full", "A lista de espera deste profissional está cheia no momento. Tente novamente mais tarde.")
)

func errDateFull(date string) error {
	return httpx.NewError(http.StatusConflict, "waitlist_full", fmt.Sprintf("A lista de espera de %s está cheia. Escolha outras datas ou tente novamente mais tarde.", brfmt.Date(date)))
}

// bounded refuses a join past a bound: the contact's entries, the
// practice's, or one of the dates'.
func (s *Service) bounded(ctx context.Context, tx *db.Tx, ownerID, email, phone, first, last, today string) error {
	count := func(query string, args ...any) (int, error) {
		var n int
		return n, tx.QueryRowContext(ctx, query, args...).Scan(&n)
	}
	n, err := count(`SELECT COUNT(*) FROM waitlist_entries WHERE user_id = ? AND booked_at IS NULL AND last_date >= ? AND (client_email = ? OR client_phone = ?)`,
		ownerID, today, orNone(email), orNone(phone))
	if err != nil {
		return err
	}
	if n >= MaxPerContact {
		return errContactMax
	}
	if n, err = count(`SELECT COUNT(*) FROM waitlist_entries WHERE user_id = ? AND booked_at IS NULL AND last_date >= ?`, ownerID, today); err != nil {
		return err
	}
	if n >= MaxPerOwner {
		return errOwnerFull
	}
	for d := first; d <= last; d = nextDate(d) {
		if n, err = count(`SELECT COUNT(*) FROM waitlist_entries WHERE user_id = ? AND booked_at IS NULL AND first_date <= ? AND last_date >= ?`, ownerID, d, d); err != nil {
			return err
		}
		if n >= MaxPerDate {
			return errDateFull(d)
		}
	}
	return nil
}

// orNone is a contact to compare with: NULL (equal to nothing) when empty.
func orNone(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// once reports whether this is the first time today a message about
// something goes from the owner's waitlist (and records it): the one
// caller that inserts the row sends.
func (s *Service) once(ctx context.Context, tx *db.Tx, ownerID, about, today string) (bool, error) {
	sum := sha256.Sum256([]byte(about))
	res, err := tx.ExecContext(ctx, `INSERT INTO waitlist_notices (user_id, about, day) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		ownerID, hex.EncodeToString(sum[:]), today)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// dates is a range of dates as the client reads it.
func dates(first, last string) string {
	if first == last {
		return brfmt.Date(first)
	}
	return "de " + brfmt.Date(first) + " a " + brfmt.Date(last)
}

// entry reads the entry behind a token's hash.
func (s *Service) entry(ctx context.Context, q db.Querier, hash string) (*Entry, error) {
	var e Entry
	var ownerID, pro string
	var username sql.NullString
	var booked sql.NullTime
	err := q.QueryRowContext(ctx, `SELECT w.user_id, p.name, p.public_username, s.name, COALESCE(w.professional_id, ''), COALESCE(pr.name, ''),
		w.first_date, w.last_date, w.part_of_day, w.booked_at
		FROM waitlist_entries w JOIN profiles p ON p.id = w.user_id JOIN services s ON s.id = w.service_id LEFT JOIN professionals pr ON pr.id = w.professional_id
		WHERE w.token_hash = ?`, hash).Scan(&ownerID, &e.OwnerName, &username, &e.ServiceName, &pro, &e.ProfessionalName, &e.FirstDate, &e.LastDate, &e.PartOfDay, &booked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errEntry
	}
	if err != nil {
		return nil, err
	}
	e.Username = username.String
	e.Status = "waiting"
	if booked.Valid {
		e.Status = "booked"
	} else {
		loc, err := profiles.Zone(ctx, q, ownerID)
		if err != nil {
			return nil, err
		}
		if e.LastDate < slots.Today(s.Clock.Now(), loc) {
			e.Status = "expired"
		}
	}
	return &e, nil
}

// Lookup is the entry behind a client's link.
func (s *Service) Lookup(ctx context.Context, token string) (*Entry, error) {
	return s.entry(ctx, s.DB, auth.HashToken(token))
}

// Leave takes the client off the list: the entry and its offers go.
func (s *Service) Leave(ctx context.Context, token string) error {
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		var id, ownerID, name, key string
		err := tx.QueryRowContext(ctx, `SELECT id, user_id, client_name, client_key FROM waitlist_entries WHERE token_hash = ?`, auth.HashToken(token)).Scan(&id, &ownerID, &name, &key)
		if errors.Is(err, sql.ErrNoRows) {
			return errEntry
		}
		if err != nil {
			return err
		}
		// The owner's lock first (db.Tx.LockOwner); the read above locked nothing.
		if err := tx.LockOwner(ctx, ownerID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM waitlist_entries WHERE id = ?`, id); err != nil {
			return err
		}
		return s.Notes.AboutClient(ctx, tx, ownerID, key, "Saída da lista de espera", name+" saiu da lista de espera.")
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return errEntry // the account was deleted meanwhile
	}
	return err
}

// Cleanup deletes the entries whose last date has passed (with their
// offers): of one owner when ownerID is set (as of their today), else of
// every owner up to the day before today in UTC (no zone is a whole day
// behind it). Matching and the owner's list skip such entries before then.
func (s *Service) Cleanup(ctx context.Context, ownerID string) error {
	if ownerID == "" {
		if _, err := s.DB.ExecContext(ctx, `DELETE FROM waitlist_notices WHERE day < ?`, s.Clock.Now().UTC().AddDate(0, 0, -2).Format("2006-01-02")); err != nil {
			return err
		}
		_, err := s.DB.ExecContext(ctx, `DELETE FROM waitlist_entries WHERE last_date < ?`, s.Clock.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02"))
		return err
	}
	loc, err := profiles.Zone(ctx, s.DB, ownerID)
	if err != nil {
		return err
	}
	_, err = s.DB.ExecContext(ctx, `DELETE FROM waitlist_entries WHERE user_id = ? AND last_date < ?`, ownerID, slots.Today(s.Clock.Now(), loc))
	return err
}

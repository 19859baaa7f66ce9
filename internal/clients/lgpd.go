package clients

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// The LGPD's data subject requests (Lei 13.709, art. 18) for one client of
// an owner: a copy of everything stored about them, and erasure of their
// personal data. An erased client's appointments keep their date, time,
// service, professional, status and amount — the owner's reports need them
// and hold nothing personal — under the name ErasedName.

// ErasedName replaces an erased client's name.
const ErasedName = "Cliente removido"

// Data is everything stored about one client of an owner.
type Data struct {
	ExportedAt time.Time `json:"exportedAt"`
	Client     struct {
		Name  string `json:"name"`
		Email string `json:"email"`
		Phone string `json:"phone"`
	} `json:"client"`
	Appointments  []DataAppointment  `json:"appointments"`
	Notifications []DataNotification `json:"notifications"`
	Waitlist      []DataWaitlist     `json:"waitlist"`
	// Deposits are the deposits (sinais) of their appointments, with every
	// change of each (issue 29).
	Deposits []DataDeposit `json:"deposits"`
	// What was sent to them about their appointments (issue 28): the
	// one-tap answer links and the WhatsApp messages with the status Meta
	// last reported.
	AnswerLinks      []DataAnswerLink `json:"answerLinks"`
	WhatsAppMessages []DataMessage    `json:"whatsappMessages"`
	// PushSubscriptions are their browsers subscribed to notifications
	// (issue 41 §4), each with the messages sent to it.
	PushSubscriptions []DataPush `json:"pushSubscriptions"`
}

// DataPush is a browser of the client's subscribed to push notifications:
// the push service it is reached through (the address itself, the
// browser's secret, and its keys are kept but not copied: with them anyone
// could aim messages at it) and what was sent to it.
type DataPush struct {
	Service   string            `json:"service"` // the push service's host, e.g. fcm.googleapis.com
	CreatedAt time.Time         `json:"createdAt"`
	Messages  []DataPushMessage `json:"messages"`
}

// DataPushMessage is one notification sent (or queued) to a browser.
type DataPushMessage struct {
	Kind      string     `json:"kind"`  // reminder, offer, cancelled, moved
	State     string     `json:"state"` // queued, sent, failed
	CreatedAt time.Time  `json:"createdAt"`
	SentAt    *time.Time `json:"sentAt"`
}

// DataAnswerLink is a one-tap answer link sent to the client (the link
// itself is kept only as a hash, so it is not in the copy).
type DataAnswerLink struct {
	AppointmentDate string    `json:"appointmentDate"`
	AppointmentTime string    `json:"appointmentTime"`
	Action          string    `json:"action"`  // confirm, reschedule, cancel
	Channel         string    `json:"channel"` // email, whatsapp
	CreatedAt       time.Time `json:"createdAt"`
}

// DataMessage is a WhatsApp message sent to the client about one of their
// appointments, or a waitlist offer (kind waitlist_offer; the date and
// time offered), with its delivery status.
type DataMessage struct {
	AppointmentDate string     `json:"appointmentDate"`
	AppointmentTime string     `json:"appointmentTime"`
	Kind            string     `json:"kind"`
	State           string     `json:"state"`
	Error           string     `json:"error"`
	EmailedInstead  bool       `json:"emailedInstead"`
	SentAt          *time.Time `json:"sentAt"`
	StatusAt        *time.Time `json:"statusAt"`
	CreatedAt       time.Time  `json:"createdAt"`
}

// DataWaitlist is one of the client's waitlist entries (issue 28, point 3),
// with the times offered to it.
type DataWaitlist struct {
	Service      string          `json:"service"`
	Professional string          `json:"professional"` // "" for any professional
	FirstDate    string          `json:"firstDate"`
	LastDate     string          `json:"lastDate"`
	PartOfDay    string          `json:"partOfDay"`
	Name         string          `json:"name"`
	Email        string          `json:"email"`
	Phone        string          `json:"phone"`
	CreatedAt    time.Time       `json:"createdAt"`
	Offers       []DataWaitOffer `json:"offers"`
}

// DataWaitOffer is a time offered to a waitlist entry.
type DataWaitOffer struct {
	Date      string    `json:"date"`
	Time      string    `json:"time"`
	Claimed   bool      `json:"claimed"`
	CreatedAt time.Time `json:"createdAt"`
}

// DataAppointment is one of the client's appointments as stored.
type DataAppointment struct {
	Date         string `json:"date"`
	Time         string `json:"time"`
	Service      string `json:"service"`
	Professional string `json:"professional"`
	Duration     int    `json:"duration"`
	PriceCents   int64  `json:"priceCents"`
	Status       string `json:"status"`
	Name         string `json:"name"`
	Email        string `json:"email"`
	Phone        string `json:"phone"`
	// CPF is the payer's CPF given for the Receita Saúde's receipts (issue
	// 43 §4): personal data, so in the client's copy.
	CPF       string    `json:"cpf"`
	Notes     string    `json:"notes"`
	CreatedAt time.Time `json:"createdAt"`
	// The client's answer to a reminder (issue 28): "", "confirmed",
	// "reschedule" or "cancelled"; when, and by which channel.
	Answer        string     `json:"answer"`
	AnsweredAt    *time.Time `json:"answeredAt"`
	AnswerChannel string     `json:"answerChannel"`
}

// DataDeposit is one appointment's deposit.
type DataDeposit struct {
	Date        string     `json:"date"`
	Time        string     `json:"time"`
	Service     string     `json:"service"`
	AmountCents int64      `json:"amountCents"`
	State       string     `json:"state"`
	PaidAt      *time.Time `json:"paidAt"`
	ReturnedAt  *time.Time `json:"returnedAt"`
	History     []string   `json:"history"` // "2026-11-23T12:00:00Z paid (owner)"
}

// DataNotification is an owner's notification about the client or one of their appointments.
type DataNotification struct {
	Title       string    `json:"title"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
}

var (
	errDataClient  = httpx.NewError(http.StatusNotFound, "not_found", "Cliente não encontrado.")
	errEraseAnswer = httpx.Validation("Confirme a exclusão dos dados do cliente.")
)

// ClientData gathers everything stored about the client with this key.
func (s *Service) ClientData(ctx context.Context, userID, key string) (*Data, error) {
	key, err := booking.ClientKeyOf(ctx, s.DB, userID, key)
	if err != nil {
		return nil, err
	}
	d := &Data{ExportedAt: s.Clock.Now().UTC(), Appointments: []DataAppointment{}, Notifications: []DataNotification{}, Waitlist: []DataWaitlist{}, Deposits: []DataDeposit{},
		AnswerLinks: []DataAnswerLink{}, WhatsAppMessages: []DataMessage{}, PushSubscriptions: []DataPush{}}
	err = db.Each(ctx, s.DB, `SELECT appointment_date, appointment_time, service_name, professional_name, duration, price_cents, status,
		client_name, client_email, client_phone, payer_cpf, notes, created_at, client_answer, client_answer_at, client_answer_channel FROM appointments WHERE user_id = ? AND client_key = ? ORDER BY appointment_date DESC, appointment_time DESC`,
		[]any{userID, key}, func(r *sql.Rows) error {
			var a DataAppointment
			var answered sql.NullTime
			if err := r.Scan(&a.Date, &a.Time, &a.Service, &a.Professional, &a.Duration, &a.PriceCents, &a.Status, &a.Name, &a.Email, &a.Phone, &a.CPF, &a.Notes, &a.CreatedAt,
				&a.Answer, &answered, &a.AnswerChannel); err != nil {
				return err
			}
			if answered.Valid {
				at := answered.Time.UTC()
				a.AnsweredAt = &at
			}
			a.CreatedAt = a.CreatedAt.UTC()
			d.Appointments = append(d.Appointments, a)
			return nil
		})
	if err != nil {
		return nil, err
	}
	if err := s.waitlistData(ctx, d, userID, key); err != nil {
		return nil, err
	}
	if err := s.depositData(ctx, d, userID, key); err != nil {
		return nil, err
	}
	switch {
	case len(d.Appointments) > 0:
		latest := d.Appointments[0] // the contacts as last written
		d.Client.Name, d.Client.Email, d.Client.Phone = latest.Name, latest.Email, latest.Phone
	case len(d.Waitlist) > 0:
		latest := d.Waitlist[0]
		d.Client.Name, d.Client.Email, d.Client.Phone = latest.Name, latest.Email, latest.Phone
	default:
		return nil, errDataClient
	}
	err = db.Each(ctx, s.DB, `SELECT title, description, created_at FROM notifications
		WHERE user_id = ? AND (client_key = ? OR appointment_id IN (SELECT id FROM appointments WHERE user_id = ? AND client_key = ?))
		ORDER BY created_at DESC`, []any{userID, key, userID, key}, func(r *sql.Rows) error {
		var n DataNotification
		if err := r.Scan(&n.Title, &n.Description, &n.CreatedAt); err != nil {
			return err
		}
		n.CreatedAt = n.CreatedAt.UTC()
		d.Notifications = append(d.Notifications, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.pushData(ctx, d, userID, key); err != nil {
		return nil, err
	}
	return d, s.sentData(ctx, d, userID, key)
}

// pushData adds the client's subscribed browsers (by their key), oldest
// first, each with the messages sent to it.
func (s *Service) pushData(ctx context.Context, d *Data, userID, key string) error {
	index := map[string]int{}
	err := db.Each(ctx, s.DB, `SELECT id, endpoint, created_at FROM push_subscriptions WHERE user_id = ? AND client_key = ? ORDER BY created_at, id`,
		[]any{userID, key}, func(r *sql.Rows) error {
			var id, endpoint string
			var p DataPush
			if err := r.Scan(&id, &endpoint, &p.CreatedAt); err != nil {
				return err
			}
			if u, err := url.Parse(endpoint); err == nil {
				p.Service = u.Hostname()
			}
			p.CreatedAt, p.Messages = p.CreatedAt.UTC(), []DataPushMessage{}
			index[id] = len(d.PushSubscriptions)
			d.PushSubscriptions = append(d.PushSubscriptions, p)
			return nil
		})
	if err != nil || len(index) == 0 {
		return err
	}
	return db.Each(ctx, s.DB, `SELECT d.subscription_id, d.kind, d.state, d.created_at, d.sent_at FROM push_deliveries d
		JOIN push_subscriptions s ON s.id = d.subscription_id WHERE s.user_id = ? AND s.client_key = ? ORDER BY d.created_at, d.idem_key`,
		[]any{userID, key}, func(r *sql.Rows) error {
			var id string
			var m DataPushMessage
			var sent sql.NullTime
			if err := r.Scan(&id, &m.Kind, &m.State, &m.CreatedAt, &sent); err != nil {
				return err
			}
			m.CreatedAt, m.SentAt = m.CreatedAt.UTC(), utcOrNil(sent)
			if i, ok := index[id]; ok {
				d.PushSubscriptions[i].Messages = append(d.PushSubscriptions[i].Messages, m)
			}
			return nil
		})
}

// sentData adds what was sent to the client about their appointments:
// answer links and WhatsApp messages, found by the appointments' ids.
func (s *Service) sentData(ctx context.Context, d *Data, userID, key string) error {
	theirs := `t.user_id = ? AND a.user_id = ? AND a.client_key = ?`
	err := db.Each(ctx, s.DB, `SELECT a.appointment_date, a.appointment_time, t.action, t.channel, t.created_at
		FROM answer_tokens t JOIN appointments a ON a.id = t.appointment_id WHERE `+theirs+` ORDER BY t.created_at DESC, t.action`,
		[]any{userID, userID, key}, func(r *sql.Rows) error {
			var l DataAnswerLink
			if err := r.Scan(&l.AppointmentDate, &l.AppointmentTime, &l.Action, &l.Channel, &l.CreatedAt); err != nil {
				return err
			}
			l.CreatedAt = l.CreatedAt.UTC()
			d.AnswerLinks = append(d.AnswerLinks, l)
			return nil
		})
	if err != nil {
		return err
	}
	// Messages about their appointments, and the waitlist offers sent to
	// them (the offered date and time in the appointment's place).
	return db.Each(ctx, s.DB, `SELECT a.appointment_date, a.appointment_time, t.kind, t.state, t.error, t.emailed, t.sent_at, t.status_at, t.created_at, t.id
		FROM whatsapp_messages t JOIN appointments a ON a.id = t.appointment_id WHERE `+theirs+`
		UNION ALL
		SELECT o.offer_date, o.offer_time, t.kind, t.state, t.error, t.emailed, t.sent_at, t.status_at, t.created_at, t.id
		FROM whatsapp_messages t JOIN waitlist_offers o ON o.id = t.offer_id JOIN waitlist_entries a ON a.id = o.entry_id WHERE `+theirs+`
		ORDER BY 9 DESC, 10`,
		[]any{userID, userID, key, userID, userID, key}, func(r *sql.Rows) error {
			var m DataMessage
			var sent, status sql.NullTime
			var id string
			if err := r.Scan(&m.AppointmentDate, &m.AppointmentTime, &m.Kind, &m.State, &m.Error, &m.EmailedInstead, &sent, &status, &m.CreatedAt, &id); err != nil {
				return err
			}
			m.SentAt, m.StatusAt, m.CreatedAt = utcOrNil(sent), utcOrNil(status), m.CreatedAt.UTC()
			d.WhatsAppMessages = append(d.WhatsAppMessages, m)
			return nil
		})
}

func utcOrNil(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}

// waitlistData adds the client's waitlist entries (by their key), newest
// first, each with its offers.
func (s *Service) waitlistData(ctx context.Context, d *Data, userID, key string) error {
	ids := []string{}
	err := db.Each(ctx, s.DB, `SELECT w.id, s.name, COALESCE(p.name, ''), w.first_date, w.last_date, w.part_of_day, w.client_name, w.client_email, w.client_phone, w.created_at
		FROM waitlist_entries w JOIN services s ON s.id = w.service_id LEFT JOIN professionals p ON p.id = w.professional_id
		WHERE w.user_id = ? AND w.client_key = ? ORDER BY w.created_at DESC, w.id`, []any{userID, key}, func(r *sql.Rows) error {
		var id string
		e := DataWaitlist{Offers: []DataWaitOffer{}}
		if err := r.Scan(&id, &e.Service, &e.Professional, &e.FirstDate, &e.LastDate, &e.PartOfDay, &e.Name, &e.Email, &e.Phone, &e.CreatedAt); err != nil {
			return err
		}
		e.CreatedAt = e.CreatedAt.UTC()
		ids = append(ids, id)
		d.Waitlist = append(d.Waitlist, e)
		return nil
	})
	if err != nil {
		return err
	}
	for i, id := range ids {
		err := db.Each(ctx, s.DB, `SELECT offer_date, offer_time, claimed_at IS NOT NULL, created_at FROM waitlist_offers WHERE entry_id = ? ORDER BY created_at, id`,
			[]any{id}, func(r *sql.Rows) error {
				var o DataWaitOffer
				if err := r.Scan(&o.Date, &o.Time, &o.Claimed, &o.CreatedAt); err != nil {
					return err
				}
				o.CreatedAt = o.CreatedAt.UTC()
				d.Waitlist[i].Offers = append(d.Waitlist[i].Offers, o)
				return nil
			})
		if err != nil {
			return err
		}
	}
	return nil
}

// ErasedNote replaces the text of every notification written about an
// erased client.
const ErasedNote = "Dados pessoais do cliente removidos (LGPD)."

// EraseClient erases the client's personal data by reference, never by
// searching text for it: their appointments are the rows with their key
// (name, e-mail, phone and notes replaced whole); the owner's
// notifications and the queued or sent jobs written for them are the rows
// that name those appointments or their key (a notification's description
// replaced whole, its title kept: titles say what happened, never to whom;
// a job, whose payload may be an e-mail to them or naming them, deleted:
// nothing is sent to them any more). Then the owner is told.
// It returns how many appointments were erased. A search of free text
// reached other owners' e-mails (a stored "%@%.%") and rewrote other
// clients' names ("Ana" in "Dra Ana Lima"); a reference reaches neither.
func (s *Service) EraseClient(ctx context.Context, userID, key string) (*Erased, error) {
	var erased int64
	out := &Erased{}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		// Their health records stay for their legal retention (LGPD art.
		// 16 I; issue 43): sealed, they lose the key that found them by
		// phone or e-mail, and the answer says until when they are kept.
		if err := keepRecords(ctx, tx, userID, key, s.Clock.Now(), out); err != nil {
			return err
		}
		// A key of its own: the erased rows are nobody's to find again.
		gone := "removido:" + uuid.NewString()
		// What was written for them names their key or one of their
		// appointments; read before the appointments give up the key.
		theirs := `user_id = ? AND (client_key = ? OR appointment_id IN (SELECT id FROM appointments WHERE user_id = ? AND client_key = ?))`
		if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE `+theirs, userID, key, userID, key); err != nil {
			return err
		}
		// Their later private links, their one-tap answer links and the
		// WhatsApp messages sent to them go (each was a message to them, and
		// a message's error may quote their number); the appointments' first
		// links stay, as the appointments do, and so do their answers (like
		// the status: nothing personal once the name is gone).
		for _, table := range []string{"appointment_links", "answer_tokens", "whatsapp_messages"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE user_id = ? AND appointment_id IN (SELECT id FROM appointments WHERE user_id = ? AND client_key = ?)`,
				userID, userID, key); err != nil {
				return err
			}
		}
		// Their browsers subscribed to notifications go, with what was sent
		// to each: nothing reaches them any more.
		if _, err := tx.ExecContext(ctx, `DELETE FROM push_deliveries WHERE subscription_id IN (SELECT id FROM push_subscriptions WHERE user_id = ? AND client_key = ?)`,
			userID, key); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE user_id = ? AND client_key = ?`, userID, key); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE notifications SET description = ?, metadata = '{}', client_key = ? WHERE `+theirs,
			ErasedNote, gone, userID, key, userID, key); err != nil {
			return err
		}
		// Their waitlist entries go whole, with the offers made to them.
		res, err := tx.ExecContext(ctx, `DELETE FROM waitlist_entries WHERE user_id = ? AND client_key = ?`, userID, key)
		if err != nil {
			return err
		}
		entries, err := res.RowsAffected()
		if err != nil {
			return err
		}
		res, err = tx.ExecContext(ctx, `UPDATE appointments SET client_name = ?, client_email = '', client_phone = '', notes = '', payer_cpf = '', search_key = ?, client_key = ?, updated_at = ?
			WHERE user_id = ? AND client_key = ?`, ErasedName, booking.SearchKey(ErasedName, ""), gone, s.Clock.Now(), userID, key)
		if err != nil {
			return err
		}
		if erased, err = res.RowsAffected(); err != nil {
			return err
		}
		if erased == 0 && entries == 0 {
			return errDataClient
		}
		out.Appointments = int(erased)
		note := fmt.Sprintf("Os dados pessoais de um cliente foram apagados de %d agendamento(s); datas, serviços e valores ficam para os relatórios.", erased)
		if out.Records > 0 {
			note += " " + RecordsKeptNote(out)
		}
		return s.Notes.Create(ctx, tx, userID, notifications.Client, "Dados de cliente excluídos (LGPD)", note, "")
	})
	if err != nil {
		return nil, err
	}
	// The rows no longer hold them; the database's files must not either
	// (their old versions in free space, the WAL). Done once committed, and
	// to its end even when the owner leaves the page; a failure leaves the
	// erase done and is logged, with nothing of the client.
	if err := s.DB.Reclaim(context.WithoutCancel(ctx), erasedTables...); err != nil {
		httpx.Logger(ctx).Warn("erase: free space not reclaimed", "err", err)
	}
	return out, nil
}

// Erased is what an erase did: the appointments whose personal data went,
// and the client's health records kept for their retention.
type Erased struct {
	Appointments int `json:"erased"`
	// Records are the records kept, sealed, without the client's key. They
	// may end no sooner than KeptUntil (5 years after the last entry, CFP
	// 001/2009 art. 4); Lei 13.787/2018 (art. 6) keeps patient records 20
	// years after it (LawUntil). Nothing deletes them by itself.
	Records   int    `json:"records"`
	KeptUntil string `json:"keptUntil,omitempty"`
	LawUntil  string `json:"lawUntil,omitempty"`
}

// RecordsKeptNote tells the owner what an erase kept of the client's health
// records, and until when.
func RecordsKeptNote(e *Erased) string {
	return fmt.Sprintf("O prontuário fica guardado, lacrado, como a lei exige: pode ser eliminado a partir de %s (5 anos após a última anotação, Resolução CFP 001/2009); a Lei 13.787/2018 prevê a guarda até %s. Nada o apaga sozinho.",
		brfmt.Date(e.KeptUntil), brfmt.Date(e.LawUntil))
}

// keepRecords detaches the client's health records from their key (their
// identification stays sealed inside) and says until when they are kept.
func keepRecords(ctx context.Context, tx *db.Tx, owner, key string, now time.Time, out *Erased) error {
	var last time.Time
	err := db.Each(ctx, tx, `SELECT created_at, last_entry_at FROM records WHERE owner_id = ? AND client_key = ?`, []any{owner, key}, func(r *sql.Rows) error {
		var created time.Time
		var entry sql.NullTime
		if err := r.Scan(&created, &entry); err != nil {
			return err
		}
		if entry.Valid {
			created = entry.Time
		}
		if created.After(last) {
			last = created
		}
		out.Records++
		return nil
	})
	if err != nil || out.Records == 0 {
		return err
	}
	out.KeptUntil, out.LawUntil = last.AddDate(5, 0, 0).Format("2006-01-02"), last.AddDate(20, 0, 0).Format("2006-01-02")
	_, err = tx.ExecContext(ctx, `UPDATE records SET client_key = '', erased_at = ? WHERE owner_id = ? AND client_key = ?`, now, owner, key)
	return err
}

// erasedTables are the tables an erase deletes or rewrites rows of.
var erasedTables = []string{"appointments", "records", "notifications", "jobs", "appointment_links",
	"answer_tokens", "whatsapp_messages", "waitlist_entries", "waitlist_offers", "push_subscriptions", "push_deliveries"}

// dataCSV writes a client's appointments as a spreadsheet (the clients
// list's conventions: BOM, ';', R$ with a decimal comma, formulas neutralised).
func dataCSV(w http.ResponseWriter, d *Data) error {
	if _, err := w.Write([]byte("\uFEFF")); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	cw.UseCRLF = true
	if err := cw.Write([]string{"Data", "Horário", "Serviço", "Profissional", "Duração (min)", "Valor", "Status", "Nome", "Email", "Telefone", "CPF", "Observações", "Criado em",
		"Resposta do cliente", "Respondido em", "Respondido por"}); err != nil {
		return err
	}
	for _, a := range d.Appointments {
		answeredAt := ""
		if a.AnsweredAt != nil {
			answeredAt = brfmt.DayTime(*a.AnsweredAt)
		}
		if err := cw.Write([]string{brfmt.Date(a.Date), a.Time, brfmt.SheetCell(a.Service), brfmt.SheetCell(a.Professional), fmt.Sprint(a.Duration), brfmt.SheetMoney(a.PriceCents),
			brfmt.Status(a.Status), brfmt.SheetCell(a.Name), brfmt.SheetCell(a.Email), brfmt.SheetCell(a.Phone), a.CPF, brfmt.SheetCell(a.Notes), brfmt.DayTime(a.CreatedAt),
			answerWords[a.Answer], answeredAt, channelWords[a.AnswerChannel]}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// answerWords and channelWords say a client's answer in the agenda's words.
var (
	answerWords  = map[string]string{"": "sem resposta", "confirmed": "confirmado pelo cliente", "reschedule": "pediu para remarcar", "cancelled": "cancelado pelo cliente"}
	channelWords = map[string]string{"": "", "email": "e-mail", "whatsapp": "WhatsApp", "link": "link do cliente", "push": "notificação no celular"}
)

func (h *Handlers) data(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d, err := h.Svc.ClientData(r.Context(), auth.UserID(r.Context()), q.Get("key"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	stamp := d.ExportedAt.Format("2006-01-02")
	if q.Get("format") == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="cliente-agendei-`+stamp+`.csv"`)
		return dataCSV(w, d)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="cliente-agendei-`+stamp+`.json"`)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

func (h *Handlers) erase(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Identifier string `json:"identifier"`
		Confirm    bool   `json:"confirm"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if !in.Confirm {
		return errEraseAnswer
	}
	out, err := h.Svc.EraseClient(r.Context(), auth.UserID(r.Context()), in.Identifier)
	return httpx.Respond(w, http.StatusOK, out, err)
}

// depositData adds the deposits of the client's appointments, found by the
// appointments' key, each with its history.
func (s *Service) depositData(ctx context.Context, d *Data, userID, key string) error {
	index := map[string]int{}
	err := db.Each(ctx, s.DB, `SELECT dp.appointment_id, a.appointment_date, a.appointment_time, a.service_name, dp.amount_cents, dp.state, dp.paid_at, dp.returned_at
		FROM deposits dp JOIN appointments a ON a.id = dp.appointment_id WHERE a.user_id = ? AND a.client_key = ? ORDER BY a.appointment_date DESC, a.appointment_time DESC`,
		[]any{userID, key}, func(r *sql.Rows) error {
			var id string
			var x DataDeposit
			var paid, returned sql.NullTime
			if err := r.Scan(&id, &x.Date, &x.Time, &x.Service, &x.AmountCents, &x.State, &paid, &returned); err != nil {
				return err
			}
			if paid.Valid {
				t := paid.Time.UTC()
				x.PaidAt = &t
			}
			if returned.Valid {
				t := returned.Time.UTC()
				x.ReturnedAt = &t
			}
			x.History = []string{}
			index[id] = len(d.Deposits)
			d.Deposits = append(d.Deposits, x)
			return nil
		})
	if err != nil || len(index) == 0 {
		return err
	}
	return db.Each(ctx, s.DB, `SELECT e.appointment_id, e.state, e.source, e.at FROM deposit_events e JOIN appointments a ON a.id = e.appointment_id
		WHERE a.user_id = ? AND a.client_key = ? ORDER BY e.at, e.id`, []any{userID, key}, func(r *sql.Rows) error {
		var id, state, source string
		var at time.Time
		if err := r.Scan(&id, &state, &source, &at); err != nil {
			return err
		}
		if i, ok := index[id]; ok {
			d.Deposits[i].History = append(d.Deposits[i].History, fmt.Sprintf("%s %s (%s)", at.UTC().Format(time.RFC3339), state, source))
		}
		return nil
	})
}

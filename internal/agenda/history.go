package agenda

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/payments"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// History is one client's page: their latest contacts, every appointment
// (newest first), what they attended and spent, what is scheduled, and how
// often they did not come (booking.Attended, booking.Scheduled: the client
// list's rules).
type History struct {
	Client struct {
		Identifier string `json:"identifier"`
		Name       string `json:"name"`
		Email      string `json:"email"`
		Phone      string `json:"phone"`
		// CPF is the payer's CPF for the Receita Saúde's receipts (digits;
		// "" when not given).
		CPF string `json:"cpf"`
	} `json:"client"`
	Appointments    []Appointment `json:"appointments"`
	Count           int           `json:"count"` // every appointment, of any status
	AttendedCount   int           `json:"attendedCount"`
	RevenueCents    int64         `json:"revenueCents"` // of the attended appointments
	LastAttended    string        `json:"lastAttended"` // "" if none
	ScheduledCount  int           `json:"scheduledCount"`
	ScheduledCents  int64         `json:"scheduledCents"`
	NextAppointment string        `json:"nextAppointment"` // "" if none
	NoShows         int           `json:"noShows"`
	Truncated       bool          `json:"truncated"` // more than MaxHistory appointments: the oldest are left out
	// Deposits are the deposits (sinais) of their appointments, newest first.
	Deposits []HistoryDeposit `json:"deposits"`
	// Payments are their attended sessions' "Pago" / "A receber", newest
	// first (issue 43 §4), and DueCents what all of them still owe.
	Payments []payments.Line `json:"payments"`
	DueCents int64           `json:"dueCents"`
}

// HistoryDeposit is one deposit on a client's page.
type HistoryDeposit struct {
	AppointmentID string `json:"appointmentId"`
	Date          string `json:"date"`
	Time          string `json:"time"`
	Service       string `json:"service"`
	AmountCents   int64  `json:"amountCents"`
	State         string `json:"state"`
}

// MaxHistory bounds one client's page.
const MaxHistory = 500

var (
	errClientNotFound = httpx.NewError(http.StatusNotFound, "not_found", "Cliente não encontrado.")
	errClientName     = httpx.Validation("Informe o nome do cliente (até 120 caracteres).")
	errClientContact  = httpx.Validation("Informe o telefone ou o e-mail do cliente.")
	errClientPhone    = httpx.Validation("Telefone inválido. Use DDD + número, como (11) 98888-7777.")
)

// ClientHistory is the client with that identifier (client key: phone, else
// e-mail). With professionalID (a professional's own sign-in) it is their
// appointments with the client only, and a client they never saw is not found.
func (s *Service) ClientHistory(ctx context.Context, userID, professionalID, key string) (*History, error) {
	key, err := booking.ClientKeyOf(ctx, s.DB, userID, key)
	if err != nil {
		return nil, err
	}
	mine, mineArgs := "", []any{}
	if professionalID != "" {
		mine, mineArgs = " AND professional_id = ?", []any{professionalID}
	}
	list, err := list(ctx, s.DB, `SELECT `+columns+` FROM appointments WHERE user_id = ? AND client_key = ?`+mine+`
		ORDER BY appointment_date DESC, appointment_time DESC, created_at DESC LIMIT ?`, append(append([]any{userID, key}, mineArgs...), MaxHistory+1)...)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errClientNotFound
	}
	h := &History{Appointments: list}
	if len(list) > MaxHistory {
		h.Appointments, h.Truncated = list[:MaxHistory], true
	}
	latest := list[0]
	h.Client.Identifier, h.Client.Name, h.Client.Email, h.Client.Phone = key, latest.ClientName, latest.ClientEmail, latest.ClientPhone
	// The CPF given last (at a booking or by the owner), whichever appointment carries it.
	err = s.DB.QueryRowContext(ctx, `SELECT payer_cpf FROM appointments WHERE user_id = ? AND client_key = ? AND payer_cpf <> ''
		ORDER BY created_at DESC, id LIMIT 1`, userID, key).Scan(&h.Client.CPF)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	now, err := s.today(ctx, userID)
	if err != nil {
		return nil, err
	}
	args := []any{}
	for range 6 {
		args = append(args, booking.Now(now)...)
	}
	err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*),
		COALESCE(SUM(CASE WHEN `+booking.Attended+` THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN `+booking.Attended+` THEN price_cents ELSE 0 END), 0),
		COALESCE(MAX(CASE WHEN `+booking.Attended+` THEN appointment_date END), ''),
		COALESCE(SUM(CASE WHEN `+booking.Scheduled+` THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN `+booking.Scheduled+` THEN price_cents ELSE 0 END), 0),
		COALESCE(MIN(CASE WHEN `+booking.Scheduled+` THEN appointment_date END), ''),
		COALESCE(SUM(CASE WHEN status = 'no_show' THEN 1 ELSE 0 END), 0) FROM appointments WHERE user_id = ? AND client_key = ?`+mine, append(append(args, userID, key), mineArgs...)...).
		Scan(&h.Count, &h.AttendedCount, &h.RevenueCents, &h.LastAttended, &h.ScheduledCount, &h.ScheduledCents, &h.NextAppointment, &h.NoShows)
	if err != nil {
		return nil, err
	}
	h.Deposits = []HistoryDeposit{}
	err = db.Each(ctx, s.DB, `SELECT a.id, a.appointment_date, a.appointment_time, a.service_name, d.amount_cents, d.state FROM deposits d
		JOIN appointments a ON a.id = d.appointment_id WHERE a.user_id = ? AND a.client_key = ?`+strings.ReplaceAll(mine, "professional_id", "a.professional_id")+` ORDER BY a.appointment_date DESC, a.appointment_time DESC LIMIT ?`,
		append(append([]any{userID, key}, mineArgs...), MaxHistory), func(r *sql.Rows) error {
			var x HistoryDeposit
			if err := r.Scan(&x.AppointmentID, &x.Date, &x.Time, &x.Service, &x.AmountCents, &x.State); err != nil {
				return err
			}
			h.Deposits = append(h.Deposits, x)
			return nil
		})
	if err != nil {
		return nil, err
	}
	if professionalID != "" {
		// What a client paid and owes is the owner's (issue 43 §0): a
		// professional signed in as themself sees none of it.
		h.Payments = []payments.Line{}
		return h, nil
	}
	h.Payments, h.DueCents, err = payments.OfClient(ctx, s.DB, userID, key, now, MaxHistory)
	return h, err
}

// ContactInput is a client's corrected name and contacts.
type ContactInput struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	Phone      string `json:"phone"`
	Email      string `json:"email"`
	// CPF is the payer's CPF (issue 43 §4): nil leaves it, "" clears it.
	CPF *string `json:"cpf"`
}

// UpdateClient writes a client's name and contacts into every one of their
// appointments (the client is derived from them), and returns the client's
// identifier afterwards (it changes with the phone, or the e-mail when
// there is no phone). Two clients given the same contact become one.
func (s *Service) UpdateClient(ctx context.Context, userID string, in ContactInput) (string, error) {
	name := strings.Join(strings.Fields(in.Name), " ")
	if name == "" || utf8.RuneCountInString(name) > 120 {
		return "", errClientName
	}
	email := strings.TrimSpace(in.Email)
	if email != "" {
		e, err := auth.NormalizeEmail(email)
		if err != nil {
			return "", err
		}
		email = e
	}
	phone := ""
	if strings.TrimSpace(in.Phone) != "" {
		p, ok := booking.NormalizePhone(in.Phone)
		if !ok {
			return "", errClientPhone
		}
		phone = p
	}
	if phone == "" && email == "" {
		return "", errClientContact
	}
	key := booking.ClientKey(phone, email)
	var cpf string
	if in.CPF != nil {
		c, err := payments.NormalizeCPF(*in.CPF)
		if err != nil {
			return "", err
		}
		cpf = c
	}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if in.CPF != nil {
			// The CPF is personal data: written, never logged.
			if _, err := tx.ExecContext(ctx, `UPDATE appointments SET payer_cpf = ? WHERE user_id = ? AND client_key = ?`, cpf, userID, in.Identifier); err != nil {
				return err
			}
		}
		n, err := db.ExecOwnedCount(ctx, tx, errClientNotFound, `UPDATE appointments SET client_name = ?, client_phone = ?, client_email = ?, search_key = ?, client_key = ?, updated_at = ?
			WHERE user_id = ? AND client_key = ?`, name, phone, email, booking.SearchKey(name, email), key, s.Clock.Now(), userID, in.Identifier)
		if err != nil {
			return err
		}
		// What was written for the client follows them to their new key (two
		// clients made one share theirs), so that erasing them still finds it.
		for _, table := range []string{"notifications", "jobs"} {
			if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET client_key = ? WHERE user_id = ? AND client_key = ?`, key, userID, in.Identifier); err != nil {
				return err
			}
		}
		desc := fmt.Sprintf("%s: nome e contatos corrigidos em %d agendamento(s).", name, n)
		return s.Notes.AboutClient(ctx, tx, userID, key, "Dados do cliente atualizados", desc)
	})
	if err != nil {
		return "", err
	}
	return key, nil
}

func (h *Handlers) history(w http.ResponseWriter, r *http.Request) error {
	out, err := h.Svc.ClientHistory(r.Context(), auth.UserID(r.Context()), auth.Professional(r.Context()), r.URL.Query().Get("key"))
	return httpx.Respond(w, http.StatusOK, out, err)
}

func (h *Handlers) updateClient(w http.ResponseWriter, r *http.Request) error {
	var in ContactInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	owner := auth.UserID(r.Context())
	key, err := h.Svc.UpdateClient(r.Context(), owner, in)
	if err != nil {
		return err
	}
	out, err := h.Svc.ClientHistory(r.Context(), owner, "", key)
	return httpx.Respond(w, http.StatusOK, out, err)
}

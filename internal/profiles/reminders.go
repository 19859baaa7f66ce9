package profiles

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Reminders are the owner's automatic reminders (issue 28): how many (0, 1
// or 2) and how long before each appointment, and the e-mail's text. The
// WhatsApp reminder's text is Messages.Reminder. Custom is false for an
// owner who never chose: they get the server's lead (AGENDEI_REMINDER_LEAD).
type Reminders struct {
	// Leads are minutes before the appointment, earliest first.
	Leads  []int  `json:"leads"`
	Custom bool   `json:"custom"`
	Email  string `json:"email"`
}

// DefaultReminderEmail is the reminder e-mail's text of an owner who has
// not written their own; its three buttons come after it.
const DefaultReminderEmail = "Passando para lembrar do seu horário de {servico} com {profissional} em {data} às {hora}. Você vem? Responda com um toque nos botões abaixo."

// MaxReminders is how many reminders an appointment may have; MinLead and
// MaxLead bound each one's lead.
const (
	MaxReminders = 2
	MinLead      = 30          // minutes
	MaxLead      = 7 * 24 * 60 // a week
)

// ParseLeads reads profiles.reminder_leads ("1440,120"): minutes,
// earliest first; what does not parse is left out.
func ParseLeads(raw string) []int {
	out := []int{}
	for _, f := range strings.Split(raw, ",") {
		if m, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && m > 0 {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return b - a })
	return out
}

// Reminders returns the owner's reminder setting.
func (s *Service) Reminders(ctx context.Context, userID string) (*Reminders, error) {
	return s.reminders(ctx, s.DB, userID)
}

func (s *Service) reminders(ctx context.Context, q db.Querier, userID string) (*Reminders, error) {
	var raw sql.NullString
	var r Reminders
	if err := q.QueryRowContext(ctx, `SELECT reminder_leads, msg_reminder_email FROM profiles WHERE id = ?`, userID).Scan(&raw, &r.Email); err != nil {
		return nil, err
	}
	r.Custom = raw.Valid
	if raw.Valid {
		r.Leads = ParseLeads(raw.String)
	} else {
		lead := s.DefaultReminderLead
		if lead <= 0 {
			lead = 24 * time.Hour
		}
		r.Leads = []int{int(lead / time.Minute)}
	}
	if r.Email == "" {
		r.Email = DefaultReminderEmail
	}
	return &r, nil
}

// SaveReminders stores the owner's reminder setting and, in the same
// transaction, re-plans the reminders queued for their future appointments
// (Replan).
func (s *Service) SaveReminders(ctx context.Context, userID string, in Reminders) (*Reminders, error) {
	if len(in.Leads) > MaxReminders {
		return nil, httpx.Validation("Escolha no máximo 2 lembretes.")
	}
	leads := slices.Clone(in.Leads)
	slices.SortFunc(leads, func(a, b int) int { return b - a })
	for i, m := range leads {
		if m < MinLead || m > MaxLead {
			return nil, httpx.Validation("Cada lembrete vai de 30 minutos a 7 dias antes do horário.")
		}
		if i > 0 && m == leads[i-1] {
			return nil, httpx.Validation("Os dois lembretes precisam de antecedências diferentes.")
		}
	}
	in.Email = strings.TrimSpace(in.Email)
	if in.Email == "" {
		return nil, httpx.Validation("Escreva o texto do e-mail de lembrete.")
	}
	if utf8.RuneCountInString(in.Email) > MaxMessage {
		return nil, httpx.Validation(fmt.Sprintf("O texto do e-mail de lembrete deve ter no máximo %d caracteres.", MaxMessage))
	}
	if err := knownPlaceholders(in.Email, "e-mail de lembrete"); err != nil {
		return nil, err
	}
	raw := make([]string, len(leads))
	for i, m := range leads {
		raw[i] = strconv.Itoa(m)
	}
	var out *Reminders
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if err := db.ExecOwned(ctx, tx, httpx.ErrNotFound, `UPDATE profiles SET reminder_leads = ?, msg_reminder_email = ?, updated_at = ? WHERE id = ?`,
			strings.Join(raw, ","), in.Email, s.Clock.Now(), userID); err != nil {
			return err
		}
		if s.Replan != nil {
			if err := s.Replan(ctx, tx, userID); err != nil {
				return err
			}
		}
		var err error
		out, err = s.reminders(ctx, tx, userID)
		return err
	})
	return out, err
}

func (h *Handlers) reminders(w http.ResponseWriter, r *http.Request) error {
	m, err := h.Svc.Reminders(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, m, err)
}

func (h *Handlers) saveReminders(w http.ResponseWriter, r *http.Request) error {
	var in Reminders
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	m, err := h.Svc.SaveReminders(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, m, err)
}

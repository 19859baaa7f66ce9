package profiles

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Messages are the owner's WhatsApp message templates: the texts the
// agenda's one-tap buttons open wa.me with, the placeholders filled in the
// page ({nome}, {data}, {hora}, {servico}, {profissional}, {link}; and
// {link_cliente}, the client's own private link, which the page asks the
// server for when it composes the message).
type Messages struct {
	Confirmation string `json:"confirmation"`
	Reminder     string `json:"reminder"`
	Reschedule   string `json:"reschedule"`
}

// DefaultMessages are the texts of an owner who has not written their own.
var DefaultMessages = Messages{
	Confirmation: "Olá, {nome}! Seu horário de {servico} com {profissional} está confirmado para {data} às {hora}. Até lá!",
	Reminder:     "Olá, {nome}! Passando para lembrar do seu horário de {servico} com {profissional} em {data} às {hora}. Se não puder vir, é só me avisar por aqui.",
	Reschedule:   "Olá, {nome}! Seu horário de {servico} com {profissional} foi remarcado para {data} às {hora}. Se precisar de outro horário: {link}",
}

// Placeholders are the words a template may use. {endereco} is where the
// appointment happens (place.Place.Text: the address, or an online
// service's video-call link); {link_sessao} the video-call link alone (""
// for an appointment in person).
// {link_confirmar}, {link_remarcar} and {link_cancelar} are the client's
// one-tap answers (issue 28), issued when the message is composed.
var Placeholders = []string{"{nome}", "{data}", "{hora}", "{servico}", "{profissional}", "{link}", "{link_cliente}", "{endereco}", "{link_sessao}",
	"{link_confirmar}", "{link_remarcar}", "{link_cancelar}"}

// MaxMessage bounds a template (a WhatsApp message, not a letter).
const MaxMessage = 1000

var placeholder = regexp.MustCompile(`\{[^{}\s]*\}`)

// Messages returns the owner's templates, each the default when unset.
func (s *Service) Messages(ctx context.Context, userID string) (*Messages, error) {
	var m Messages
	err := s.DB.QueryRowContext(ctx, `SELECT msg_confirmation, msg_reminder, msg_reschedule FROM profiles WHERE id = ?`, userID).
		Scan(&m.Confirmation, &m.Reminder, &m.Reschedule)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		v   *string
		def string
	}{{&m.Confirmation, DefaultMessages.Confirmation}, {&m.Reminder, DefaultMessages.Reminder}, {&m.Reschedule, DefaultMessages.Reschedule}} {
		if *f.v == "" {
			*f.v = f.def
		}
	}
	return &m, nil
}

// SaveMessages stores the owner's templates: each non-empty, at most
// MaxMessage characters, with no placeholder but the known ones.
func (s *Service) SaveMessages(ctx context.Context, userID string, in Messages) (*Messages, error) {
	for _, f := range []struct {
		v    *string
		name string
	}{{&in.Confirmation, "confirmação"}, {&in.Reminder, "lembrete"}, {&in.Reschedule, "remarcação"}} {
		*f.v = strings.TrimSpace(*f.v)
		if *f.v == "" {
			return nil, httpx.Validation("Escreva a mensagem de " + f.name + ".")
		}
		if utf8.RuneCountInString(*f.v) > MaxMessage {
			return nil, httpx.Validation("A mensagem de " + f.name + " deve ter no máximo 1000 caracteres.")
		}
		if err := knownPlaceholders(*f.v, f.name); err != nil {
			return nil, err
		}
	}
	err := s.DB.OwnerExec(ctx, userID, httpx.ErrNotFound, `UPDATE profiles SET msg_confirmation = ?, msg_reminder = ?, msg_reschedule = ?, updated_at = ? WHERE id = ?`,
		in.Confirmation, in.Reminder, in.Reschedule, s.Clock.Now(), userID)
	if err != nil {
		return nil, err
	}
	return s.Messages(ctx, userID)
}

// knownPlaceholders refuses a text with a placeholder that is not one of Placeholders.
func knownPlaceholders(text, name string) error {
	for _, p := range placeholder.FindAllString(text, -1) {
		if !slices.Contains(Placeholders, p) {
			return httpx.Validation("A mensagem de " + name + " usa " + p + ", que não existe. Use " + strings.Join(Placeholders, ", ") + ".")
		}
	}
	return nil
}

func (h *Handlers) messages(w http.ResponseWriter, r *http.Request) error {
	m, err := h.Svc.Messages(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, m, err)
}

func (h *Handlers) saveMessages(w http.ResponseWriter, r *http.Request) error {
	var in Messages
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	m, err := h.Svc.SaveMessages(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, m, err)
}

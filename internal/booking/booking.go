// Package booking is how clients book: the free times of a day and the
// bookable days of a month for (professional, service), and creating an
// appointment that can never overlap another of the same professional — the
// slot is recomputed inside the transaction that inserts it, serialised per
// professional on both databases.
package booking

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/versions"
	"github.com/agendei/agendei/internal/schedule"
)

var (
	errProfile       = httpx.NewError(http.StatusNotFound, "profile_not_found", "Perfil não encontrado")
	errClosed        = httpx.NewError(http.StatusForbidden, "booking_closed", "Este profissional não está aceitando agendamentos online no momento. Entre em contato diretamente para agendar.")
	errChoice        = httpx.Validation("Profissional ou serviço indisponível. Recarregue a página e escolha novamente.")
	errDateTime      = httpx.Validation("Data ou horário inválido.")
	errRequired      = httpx.Validation("Por favor, preencha todos os campos obrigatórios.")
	errContact       = httpx.Validation("Informe um telefone ou e-mail para contato.")
	errPhone         = httpx.Validation("Informe um telefone válido, com DDD.")
	errTooLong       = httpx.Validation("O nome deve ter no máximo 120 caracteres e as observações, 1000.")
	errSlotTaken     = httpx.NewError(http.StatusConflict, "slot_unavailable", "Este profissional já possui agendamento neste horário. Por favor, escolha outro horário.")
	errTimePast      = httpx.NewError(http.StatusConflict, "slot_past", "Este horário já passou. Escolha outro horário.")
	errDayClosed     = httpx.NewError(http.StatusConflict, "day_closed", "O profissional não atende neste dia. Escolha outra data.")
	errOffHours      = httpx.NewError(http.StatusConflict, "slot_outside_hours", "Horário fora do expediente ou inválido. Escolha um dos horários disponíveis.")
	errMonth         = httpx.Validation("Mês inválido.")
	errZoneChanged   = httpx.NewError(http.StatusConflict, "settings_changed", "O fuso horário da agenda acabou de mudar. Confira o horário e tente novamente.")
	statusesThatHold = "('" + strings.Join(HoldingStatuses, "', '") + "')"
)

// Service computes times and books.
type Service struct {
	DB      *db.DB
	Clock   clock.Clock
	Mailer  *mail.Mailer // nil: no e-mail (tests of the rules alone)
	Queue   *jobs.Queue
	Notes   *notifications.Service
	BaseURL string
	// Setups keeps each owner's schedule setup per data version (nil: read
	// on every request).
	Setups *schedule.Cache
	// ReminderLead is how long before an appointment the client of an owner
	// who never chose their reminders is reminded (0: DefaultReminderLead).
	ReminderLead time.Duration
	// WhatsApp sends reminders by WhatsApp (nil: by e-mail only); see
	// ReminderSender.
	WhatsApp ReminderSender
	// Push sends reminders and notices to the client's subscribed browsers
	// too (nil: none); see PushSender.
	Push PushSender
	// Deposits picks how an owner's deposits are charged (nil:
	// deposits.Static, the static Pix from the owner's key).
	Deposits deposits.Chargers
	// DepositMinute is how long a minute of a deposit's hold lasts (0: a
	// minute; config.DepositMinute, a test switch).
	DepositMinute time.Duration
}

// Any is the professional id that asks for whichever professional is free.
const Any = "any"

// setupOf is an owner's schedule setup as of their current data version.
func (s *Service) setupOf(ctx context.Context, ownerID string) (*schedule.Setup, error) {
	if s.Setups == nil {
		return schedule.Load(ctx, s.DB, ownerID)
	}
	version, err := versions.Of(ctx, s.DB, ownerID)
	if err != nil {
		return nil, err
	}
	return s.Setups.Get(ctx, ownerID, version)
}

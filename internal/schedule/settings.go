package schedule

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/slots"
)

// The owner's side of schedules: days off, holidays, the booking rules, and
// the plan of a range of dates the agenda labels its days with.

var (
	errNotFound     = httpx.NewError(http.StatusNotFound, "not_found", "Não encontrado.")
	errDates        = httpx.Validation("Informe datas válidas, no formato AAAA-MM-DD.")
	errOrder        = httpx.Validation("A data final deve ser igual ou posterior à inicial.")
	errLong         = httpx.Validation("Uma folga pode ter no máximo 366 dias.")
	errReason       = httpx.Validation("O motivo deve ter no máximo 120 caracteres.")
	errProfessional = httpx.Validation("Escolha um profissional da sua equipe.")
	errHolidayName  = httpx.Validation("Informe o nome do feriado (até 80 caracteres).")
	errHolidayDay   = httpx.Validation("Informe um dia válido do mês.")
	errStep         = httpx.Validation("O intervalo entre horários deve ser 15, 30 ou 60 minutos, ou a duração do serviço.")
	errNotice       = httpx.Validation("A antecedência mínima deve ser de 0 a 30 dias.")
	errWindow       = httpx.Validation("Os agendamentos podem ser abertos de 1 a 365 dias à frente.")
	errCutoff       = httpx.Validation("O prazo de cancelamento deve ser de 0 a 720 horas.")
	errRange        = httpx.Validation("Escolha um período de até 62 dias, com datas válidas.")
	errYear         = httpx.Validation("Ano inválido.")
)

// Settings reads and writes an owner's days off, holidays and rules.
type Settings struct {
	DB    *db.DB
	Clock clock.Clock
	Notes *notifications.Service // blocks added and removed are told to the owner's tabs
	// Queue takes the times a removed block or day off frees to the
	// waitlist (nil: not told).
	Queue *jobs.Queue
	// Cancel cancels the affected appointments an owner's plan cancels,
	// inside the save of the block or day off.
	Cancel Canceller
}

// tellFreed tells the waitlist of the time a removed block or day off gave
// back: one professional's (pro) or, nil, everyone's; from and to are the
// dates, start and end the wall-clock bounds ("24:00" is the day's end).
func (s *Settings) tellFreed(ctx context.Context, tx *db.Tx, userID string, pro sql.NullString, from, to, start, end string) error {
	t := freed.Time{OwnerID: userID, ProfessionalID: pro.String, From: from, To: to, Start: 0, End: 24 * 60, At: s.Clock.Now()}
	if m, err := slots.ParseHHMM(start); err == nil {
		t.Start = m
	}
	if m, err := slots.ParseHHMM(end); err == nil {
		t.End = m
	}
	return freed.Tell(ctx, s.Queue, tx, t)
}

// Zone is the owner's time zone, in which "today", "past", the calendar and
// the slots are computed: the one read of it for code that has only the
// owner's id (profiles.Zone is this, for the packages above). A missing or
// unknown zone is São Paulo's (tz.Load).
func Zone(ctx context.Context, q db.Querier, ownerID string) (*time.Location, error) {
	var name string
	if err := q.QueryRowContext(ctx, `SELECT time_zone FROM profiles WHERE id = ?`, ownerID).Scan(&name); err != nil {
		return nil, err
	}
	return tz.Load(name), nil
}

// who names what a block or day off covers: a professional or the practice.
func who(professionalID *string, name string) string {
	if professionalID != nil {
		return name
	}
	return "Toda a clínica"
}

// note ends a notification's text, with the owner's reason if given.
func note(text, reason string) string {
	if reason != "" {
		text += " (" + reason + ")"
	}
	return text + "."
}

// SettingsHandlers serves the owner's schedule endpoints.
type SettingsHandlers struct {
	Settings *Settings
	Auth     *auth.Handlers
}

// Register adds the routes: each resource's handlers are in its own file
// (days_off.go, blocks.go, holidays.go, rules.go, range.go).
func (h *SettingsHandlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/days-off", h.Auth.RequireUser(httpx.Handle(h.listDaysOff)))
	mux.Handle("POST /api/days-off", h.Auth.RequireUser(httpx.Handle(h.addDayOff)))
	mux.Handle("POST /api/days-off/preview", h.Auth.RequireUser(httpx.Handle(h.previewDayOff)))
	mux.Handle("DELETE /api/days-off/{id}", h.Auth.RequireUser(httpx.Handle(h.deleteDayOff)))
	mux.Handle("GET /api/blocks", h.Auth.RequireUser(httpx.Handle(h.listBlocks)))
	mux.Handle("POST /api/blocks", h.Auth.RequireUser(httpx.Handle(h.addBlock)))
	mux.Handle("POST /api/blocks/preview", h.Auth.RequireUser(httpx.Handle(h.previewBlock)))
	mux.Handle("DELETE /api/blocks/{id}", h.Auth.RequireUser(httpx.Handle(h.deleteBlock)))
	mux.Handle("GET /api/holidays", h.Auth.RequireUser(httpx.Handle(h.listHolidays)))
	mux.Handle("POST /api/holidays", h.Auth.RequireUser(httpx.Handle(h.addHoliday)))
	mux.Handle("PUT /api/holidays/{key}", h.Auth.RequireUser(httpx.Handle(h.setHolidayOpen)))
	mux.Handle("DELETE /api/holidays/{key}", h.Auth.RequireUser(httpx.Handle(h.deleteHoliday)))
	mux.Handle("GET /api/schedule-rules", h.Auth.RequireUser(httpx.Handle(h.getRules)))
	mux.Handle("PUT /api/schedule-rules", h.Auth.RequireUser(httpx.Handle(h.saveRules)))
	mux.Handle("GET /api/schedule", h.Auth.RequireUser(httpx.Handle(h.getRange)))
}

func noContent(w http.ResponseWriter, err error) error {
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

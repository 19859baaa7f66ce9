package booking

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking/slots"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
)

// OwnerInput is an appointment the owner writes into the agenda (a booking
// that came by phone or WhatsApp).
type OwnerInput struct {
	Input
	// NotifyClient sends the client the confirmation (invite, cancel link,
	// reminder) when the client has an e-mail.
	NotifyClient bool `json:"notifyClient"`
	// OutsideHours is the owner's explicit yes to a time outside the
	// professional's hours (a closed day, a break, after closing).
	OutsideHours bool `json:"outsideHours"`
}

var (
	errOutsideHours = httpx.NewError(http.StatusConflict, "outside_hours",
		"Fora do horário de atendimento: este horário não está entre os horários do profissional. Confirme para agendar mesmo assim.")
	errBlocked = httpx.NewError(http.StatusConflict, "time_blocked",
		"Este horário está bloqueado na agenda. Remova o bloqueio ou escolha outro horário.")
	errOwnerChoice = httpx.Validation("Profissional ou serviço inválido. Escolha entre os ativos.")
	errOwnerRange  = httpx.Validation("Escolha uma data entre um ano atrás e dois anos à frente.")
)

// ownerReach is how far from today an owner may write an appointment: a
// year back (recording what happened) and two years ahead.
const ownerBack, ownerAhead = 365, 730

// setupOf is an owner's schedule setup as of their current data version.
func (s *Service) setupOf(ctx context.Context, ownerID string) (*schedule.Setup, error) {
	if s.Setups == nil {
		return schedule.Load(ctx, s.DB, ownerID)
	}
	var version int64
	if err := s.DB.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM data_versions WHERE user_id = ?`, ownerID).Scan(&version); err != nil {
		return nil, err
	}
	return s.Setups.Get(ctx, ownerID, version)
}

// Create writes an owner's appointment: any active professional and
// service, any time from a year back to two years ahead — outside the
// professional's hours only with OutsideHours — but never over another
// appointment that holds time, decided under the same lock as a client's
// booking (Hold). It returns the new appointment's id.
func (s *Service) Create(ctx context.Context, ownerID string, in OwnerInput) (string, error) {
	if err := validate(&in.Input); err != nil {
		return "", err
	}
	day, err := parseDate(in.Date)
	if err != nil {
		return "", err
	}
	minute, err := slots.ParseHHMM(in.Time)
	if err != nil {
		return "", errDateTime
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	svc, pro := st.Services[in.ServiceID], st.Professionals[in.ProfessionalID]
	if svc == nil || !svc.Active || pro == nil || !pro.Active {
		return "", errOwnerChoice
	}
	now := s.Clock.Now()
	ds := day.Format("2006-01-02")
	if ds < schedule.LastDay(now, st.Loc, -ownerBack) || ds > schedule.LastDay(now, st.Loc, ownerAhead) {
		return "", errOwnerRange
	}
	start := slots.At(day, minute, st.Loc)
	if slots.Clock(start, st.Loc) != in.Time {
		return "", errDateTime // a time the clocks skip that day
	}
	local := time.Unix(start*60, 0).In(st.Loc)
	id := uuid.NewString()
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		lock := Lock{OwnerID: ownerID, Professionals: []string{pro.ID}, Date: day, Loc: st.Loc}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			if busy[pro.ID] == nil {
				return errOwnerChoice // deleted since the setup was read
			}
			if busy.Blocked(pro.ID, day, start, svc.Duration, svc.Before, svc.After) {
				return errBlocked
			}
			near := busy.Near(pro.ID, day)
			if slots.Collides(start, svc.Duration, svc.Before, svc.After, near) {
				return errSlotTaken
			}
			if in.OutsideHours {
				return nil
			}
			// The professional's hours, as a client would be held to them, but
			// an owner may write a time that has passed or comes at short notice.
			d, _ := s.dayOf(st, pro, svc, day, near)
			d.Now, d.Notice = start, 0
			if slots.Why(d, start) != slots.Offered {
				return errOutsideHours
			}
			return nil
		}, func() error {
			token, hash := auth.OpaqueToken()
			stamp := s.Clock.Now()
			if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents,
			buffer_before, buffer_after, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)`,
				id, ownerID, pro.ID, svc.ID, pro.Name, svc.Name, svc.Duration, svc.PriceCents, svc.Before, svc.After,
				in.ClientName, in.ClientEmail, in.ClientPhone, in.Notes, ds, in.Time, local.UTC(), hash, SearchKey(in.ClientName, in.ClientEmail), ClientKey(in.ClientPhone, in.ClientEmail), stamp, stamp); err != nil {
				return err
			}
			desc := fmt.Sprintf("%s: %s com %s em %s às %s, registrado na agenda.", in.ClientName, svc.Name, pro.Name, brfmt.Date(ds), in.Time)
			if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Agendamento criado", desc, id); err != nil {
				return err
			}
			if !in.NotifyClient || in.ClientEmail == "" || s.Mailer == nil {
				return nil
			}
			b := booked{Booked: &Booked{ID: id, Date: ds, Time: in.Time, ProfessionalName: pro.Name, ServiceName: svc.Name, Duration: svc.Duration,
				PriceCents: svc.PriceCents, CancelToken: token}, ClientName: in.ClientName, ClientEmail: in.ClientEmail, ClientPhone: in.ClientPhone,
				OwnerID: ownerID, OwnerName: st.Name, Start: local}
			return s.confirmToClient(ctx, tx, stamp, b)
		})
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

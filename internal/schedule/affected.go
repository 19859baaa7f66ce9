package schedule

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/slots"
)

// Affected is a confirmed appointment inside time the owner is taking out of
// the agenda (a block or a day off): before saving, the owner decides for
// each whether it stays, moves or is cancelled with a notice to the client.
type Affected struct {
	ID               string `json:"id"`
	Date             string `json:"date"`
	Time             string `json:"time"`
	Duration         int    `json:"duration"`
	ClientName       string `json:"clientName"`
	ClientPhone      string `json:"clientPhone"`
	ClientEmail      string `json:"clientEmail"`
	ServiceName      string `json:"serviceName"`
	ServiceID        string `json:"serviceId"` // "" without one; the WhatsApp notice tells by it an online service's place (place.Of)
	ProfessionalID   string `json:"professionalId"`
	ProfessionalName string `json:"professionalName"`
}

func errAffected(list []Affected) *httpx.Error {
	names := make([]string, len(list))
	for i, a := range list {
		names[i] = fmt.Sprintf("%s (%s às %s)", a.ClientName, a.Date[8:10]+"/"+a.Date[5:7], a.Time)
	}
	return httpx.NewError(http.StatusConflict, "appointments_affected",
		"Há agendamentos confirmados neste período: "+strings.Join(names, ", ")+". Escolha para cada um manter, remarcar ou cancelar.")
}

// affected reads the confirmed appointments (and holds awaiting their
// deposit, which hold their time too) of a professional (nil: the
// whole practice) from..to whose own time (not its buffers) overlaps
// [start, end) of each date, by date and time. Whole days are 00:00–24:00.
func affected(ctx context.Context, q db.Querier, userID string, pro *string, from, to string, start, end int) ([]Affected, error) {
	query, args := `SELECT a.id, a.appointment_date, a.appointment_time, a.duration, a.client_name, a.client_phone, a.client_email, a.service_name,
		COALESCE(a.service_id, ''), COALESCE(a.professional_id, ''), a.professional_name FROM appointments a
		WHERE a.user_id = ? AND a.status IN ('confirmed', 'awaiting_deposit') AND a.appointment_date >= ? AND a.appointment_date <= ?`, []any{userID, from, to}
	if pro != nil {
		query, args = query+` AND a.professional_id = ?`, append(args, *pro)
	}
	out := []Affected{}
	err := db.Each(ctx, q, query+` ORDER BY a.appointment_date, a.appointment_time, a.id`, args, func(r *sql.Rows) error {
		var a Affected
		if err := r.Scan(&a.ID, &a.Date, &a.Time, &a.Duration, &a.ClientName, &a.ClientPhone, &a.ClientEmail, &a.ServiceName, &a.ServiceID, &a.ProfessionalID, &a.ProfessionalName); err != nil {
			return err
		}
		at, err := slots.ParseHHMM(a.Time)
		if err != nil {
			return nil // a time no slot can read holds nothing
		}
		if at < end && start < at+max(a.Duration, 1) {
			out = append(out, a)
		}
		return nil
	})
	return out, err
}

// Choice is the owner's plan for one affected appointment, saved with the
// block or day off: "keep" leaves it in place; "cancel" cancels it, and
// with Notify sends the client the cancellation; "move" moves it to Date
// and Time (with its professional and service), and with Notify tells the
// client the new time.
type Choice struct {
	ID     string `json:"id"`
	Action string `json:"action"`
	Notify bool   `json:"notify"`
	Date   string `json:"date"`
	Time   string `json:"time"`
}

// Outcome is what the save did to one affected appointment: "kept",
// "cancelled" or "moved", and for a cancellation or a move the channel that
// carried the client's notice — "email", "whatsapp", "email_whatsapp",
// "none" (no automatic message could leave: the owner sends it by hand) —
// or "" when the owner asked for none.
type Outcome struct {
	ID      string `json:"id"`
	Action  string `json:"action"`
	Channel string `json:"channel"`
	// Date and Time are where a moved one now is.
	Date string `json:"date,omitempty"`
	Time string `json:"time,omitempty"`
}

// Canceller cancels or moves an affected appointment inside the caller's
// transaction (booking.Service.CancelAffected, MoveAffected, the one
// serialised path of every move), returning the notice's channel.
type Canceller interface {
	CancelAffected(ctx context.Context, tx *db.Tx, ownerID, id string, notify bool) (string, error)
	MoveAffected(ctx context.Context, tx *db.Tx, ownerID, id, date, at string, notify bool) (string, error)
}

// taken says whether an appointment of duration minutes at date and time
// (HH:MM) would fall inside the time being taken out (the block or day off
// being saved: the move keeps the appointment's professional, whom it covers).
type taken func(date string, at, duration int) bool

var (
	errPlanAction  = httpx.Validation("Escolha manter, remarcar ou cancelar para cada agendamento afetado.")
	errPlanMoveTo  = httpx.Validation("Informe a nova data e o novo horário de cada agendamento que você vai remarcar.")
	errPlanChanged = httpx.NewError(http.StatusConflict, "plan_changed",
		"A lista de agendamentos afetados mudou. Revise as escolhas e tente de novo.")
)

// settle applies the owner's plan for the affected appointments inside tx,
// with the block or day off: every one must be kept (keep, or a "keep"
// choice) or cancelled by a choice, else the save is refused naming the
// undecided; a choice about an appointment no longer affected refuses it
// too (the owner decided on a list that changed). It returns the kept ids
// as stored with the block or day off, and what happened to each. The
// cancellations go first (their time may be where another moves to), then
// the moves, each through the booking's hold: a move into the time being
// taken out (inside), over another appointment or outside the hours, or a
// failed cancellation, fails the caller's transaction: all or nothing.
func (s *Settings) settle(ctx context.Context, tx *db.Tx, userID string, list []Affected, keep []string, plan []Choice, inside taken) (string, []Outcome, error) {
	chosen := map[string]Choice{}
	for _, c := range plan {
		switch c.Action {
		case "keep", "cancel":
		case "move":
			if _, err := slots.ParseDate(c.Date); err != nil {
				return "", nil, errPlanMoveTo
			}
			if _, err := slots.ParseHHMM(c.Time); err != nil {
				return "", nil, errPlanMoveTo
			}
		default:
			return "", nil, errPlanAction
		}
		if !slices.ContainsFunc(list, func(a Affected) bool { return a.ID == c.ID }) {
			return "", nil, errPlanChanged
		}
		chosen[c.ID] = c
	}
	var missing []Affected
	var kept []string
	for _, a := range list {
		c, ok := chosen[a.ID]
		switch {
		case ok && c.Action != "keep":
		case ok || slices.Contains(keep, a.ID):
			kept = append(kept, a.ID)
		default:
			missing = append(missing, a)
		}
	}
	if len(missing) > 0 {
		return "", nil, errAffected(missing)
	}
	if s.Cancel == nil && len(kept) < len(list) {
		return "", nil, errors.New("schedule: no canceller")
	}
	out := make([]Outcome, len(list))
	done := map[string]string{"cancel": "cancelled", "move": "moved"}
	for _, step := range []string{"cancel", "move"} {
		for i, a := range list {
			c, ok := chosen[a.ID]
			if !ok || c.Action == "keep" {
				out[i] = Outcome{ID: a.ID, Action: "kept"}
				continue
			}
			if c.Action != step {
				continue
			}
			var channel string
			var err error
			if step == "cancel" {
				channel, err = s.Cancel.CancelAffected(ctx, tx, userID, a.ID, c.Notify)
			} else {
				channel, err = s.move(ctx, tx, userID, a, c, inside)
			}
			if err != nil {
				return "", nil, err
			}
			out[i] = Outcome{ID: a.ID, Action: done[step], Channel: channel}
			if step == "move" {
				out[i].Date, out[i].Time = c.Date, c.Time
			}
		}
	}
	return strings.Join(kept, ","), out, nil
}

// move applies a planned move of the affected appointment a: never into the
// time being taken out; a refusal names the client and the time, so the
// owner knows which choice to change.
func (s *Settings) move(ctx context.Context, tx *db.Tx, userID string, a Affected, c Choice, inside taken) (string, error) {
	at, _ := slots.ParseHHMM(c.Time)
	if inside(c.Date, at, a.Duration) {
		return "", httpx.NewError(http.StatusConflict, "plan_move_inside",
			fmt.Sprintf("O novo horário de %s (%s às %s) fica dentro do período que você está tirando da agenda. Escolha outro horário.", a.ClientName, brfmt.Date(c.Date), c.Time))
	}
	channel, err := s.Cancel.MoveAffected(ctx, tx, userID, a.ID, c.Date, c.Time, c.Notify)
	var refused *httpx.Error
	if errors.As(err, &refused) {
		return "", httpx.NewError(refused.Status, refused.Code,
			fmt.Sprintf("Não foi possível remarcar %s para %s às %s: %s Nada foi salvo.", a.ClientName, brfmt.Date(c.Date), c.Time, refused.Message))
	}
	return channel, err
}

// keptList is a stored kept column as ids.
func keptList(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// lockProfessionals takes the rows of the professional (nil: every one of
// the owner's) in id order, as a booking of them does (booking.Hold), so a
// booking racing a block or day off either commits first — and is then
// among the affected — or sees it. It returns the professional's name
// (nil: ""), and false when the professional is not the owner's.
func lockProfessionals(ctx context.Context, tx *db.Tx, userID string, pro *string) (string, bool, error) {
	// The owner's lock first (db.Tx.LockOwner's order).
	if err := tx.LockOwner(ctx, userID); err != nil {
		return "", false, err
	}
	q, args := `SELECT id, name FROM professionals WHERE user_id = ?`, []any{userID}
	if pro != nil {
		q, args = q+` AND id = ?`, append(args, *pro)
	}
	name, found := "", false
	err := db.Each(ctx, tx, q+` ORDER BY id`+tx.LockRow(), args, func(r *sql.Rows) error {
		var id, n string
		if err := r.Scan(&id, &n); err != nil {
			return err
		}
		found = true
		if pro != nil {
			name = n
		}
		return nil
	})
	return name, found || pro == nil, err
}

// BlockAffected lists the confirmed appointments a block would cover.
func (s *Settings) BlockAffected(ctx context.Context, userID string, in BlockInput) ([]Affected, error) {
	b, start, end, err := checkBlock(in)
	if err != nil {
		return nil, err
	}
	return affected(ctx, s.DB, userID, b.ProfessionalID, b.Date, b.Date, start, end)
}

// DayOffAffected lists the confirmed appointments a day off would cover.
func (s *Settings) DayOffAffected(ctx context.Context, userID string, in DayOffInput) ([]Affected, error) {
	d, err := checkDayOff(in)
	if err != nil {
		return nil, err
	}
	return affected(ctx, s.DB, userID, d.ProfessionalID, d.Start, d.End, 0, 24*60)
}

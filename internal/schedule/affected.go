package schedule

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

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
// with Notify sends the client the cancellation. Moving one is done before
// saving, through the agenda's "Remarcar" (then it is no longer affected).
type Choice struct {
	ID     string `json:"id"`
	Action string `json:"action"`
	Notify bool   `json:"notify"`
}

// Outcome is what the save did to one affected appointment: "kept" or
// "cancelled", and for a cancellation the channel that carried the client's
// notice — "email", "none" (no automatic message could leave: the owner
// sends it by hand) — or "" when the owner asked for none.
type Outcome struct {
	ID      string `json:"id"`
	Action  string `json:"action"`
	Channel string `json:"channel"`
}

// Canceller cancels an affected appointment inside the caller's
// transaction (booking.Service.CancelAffected), returning the notice's
// channel.
type Canceller interface {
	CancelAffected(ctx context.Context, tx *db.Tx, ownerID, id string, notify bool) (string, error)
}

var (
	errPlanAction  = httpx.Validation("Escolha manter ou cancelar para cada agendamento afetado.")
	errPlanChanged = httpx.NewError(http.StatusConflict, "plan_changed",
		"A lista de agendamentos afetados mudou. Revise as escolhas e tente de novo.")
)

// settle applies the owner's plan for the affected appointments inside tx,
// with the block or day off: every one must be kept (keep, or a "keep"
// choice) or cancelled by a choice, else the save is refused naming the
// undecided; a choice about an appointment no longer affected refuses it
// too (the owner decided on a list that changed). It returns the kept ids
// as stored with the block or day off, and what happened to each. A failed
// cancellation fails the caller's transaction: all or nothing.
func (s *Settings) settle(ctx context.Context, tx *db.Tx, userID string, list []Affected, keep []string, plan []Choice) (string, []Outcome, error) {
	chosen := map[string]Choice{}
	for _, c := range plan {
		if c.Action != "keep" && c.Action != "cancel" {
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
		case ok && c.Action == "cancel":
		case ok || slices.Contains(keep, a.ID):
			kept = append(kept, a.ID)
		default:
			missing = append(missing, a)
		}
	}
	if len(missing) > 0 {
		return "", nil, errAffected(missing)
	}
	out := make([]Outcome, 0, len(list))
	for _, a := range list {
		c, ok := chosen[a.ID]
		if !ok || c.Action != "cancel" {
			out = append(out, Outcome{ID: a.ID, Action: "kept"})
			continue
		}
		if s.Cancel == nil {
			return "", nil, errors.New("schedule: no canceller")
		}
		channel, err := s.Cancel.CancelAffected(ctx, tx, userID, a.ID, c.Notify)
		if err != nil {
			return "", nil, err
		}
		out = append(out, Outcome{ID: a.ID, Action: "cancelled", Channel: channel})
	}
	return strings.Join(kept, ","), out, nil
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

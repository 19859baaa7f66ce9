package schedule

import (
	"context"
	"database/sql"
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

// affected reads the confirmed appointments of a professional (nil: the
// whole practice) from..to whose own time (not its buffers) overlaps
// [start, end) of each date, by date and time. Whole days are 00:00–24:00.
func affected(ctx context.Context, q db.Querier, userID string, pro *string, from, to string, start, end int) ([]Affected, error) {
	query, args := `SELECT a.id, a.appointment_date, a.appointment_time, a.duration, a.client_name, a.client_phone, a.client_email, a.service_name,
		COALESCE(a.service_id, ''), COALESCE(a.professional_id, ''), a.professional_name FROM appointments a
		WHERE a.user_id = ? AND a.status = 'confirmed' AND a.appointment_date >= ? AND a.appointment_date <= ?`, []any{userID, from, to}
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

// settle checks that every affected appointment is one the owner chose to
// keep (after moving or cancelling the others) and returns them as stored
// with the block or day off; any other refuses the save, naming them.
func settle(list []Affected, keep []string) (string, error) {
	var missing []Affected
	ids := make([]string, 0, len(list))
	for _, a := range list {
		if !slices.Contains(keep, a.ID) {
			missing = append(missing, a)
		}
		ids = append(ids, a.ID)
	}
	if len(missing) > 0 {
		return "", errAffected(missing)
	}
	return strings.Join(ids, ","), nil
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

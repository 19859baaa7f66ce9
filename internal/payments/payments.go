// Package payments is whether an attended session was paid (issue 43 §4):
// each one is "Pago" or "A receber", marked by hand in one tap or paid by
// itself when a received deposit covers its whole price; a client's
// monthly statement with the owner's static Pix for what is due; what the
// reports show as owed.
//
// Which sessions count (Billable): completed ones, and confirmed ones whose
// start has passed — many owners never mark a session "Concluído", and the
// session was held all the same, so it can be charged and marked paid.
// A no-show, a cancellation, a hold still awaiting its deposit and anything
// ahead are not charged and never appear in a statement.
//
// What a session's payment is made of: the deposit when it was received
// (state paid or retained, with its paid_at), then, when the owner marks
// the session paid, the rest of the price on that day. A deposit that
// covers the price makes the session paid by itself; a partial one leaves
// the rest due.
package payments

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Line is one appointment's payment as the owner sees it.
type Line struct {
	AppointmentID string `json:"appointmentId"`
	Date          string `json:"date"`
	Time          string `json:"time"`
	Service       string `json:"service"`
	Professional  string `json:"professional"`
	Status        string `json:"status"`
	PriceCents    int64  `json:"priceCents"`
	// DepositCents is the deposit received for it (paid or retained), at
	// most the price; 0 when none.
	DepositCents int64      `json:"depositCents"`
	DepositAt    *time.Time `json:"depositAt"`
	PaidCents    int64      `json:"paidCents"`
	DueCents     int64      `json:"dueCents"`
	// Billable: attended (completed, or confirmed and begun): it is charged.
	Billable bool `json:"billable"`
	Paid     bool `json:"paid"`
	// ByDeposit: paid by itself, the received deposit covers the price.
	ByDeposit bool `json:"byDeposit"`
	// PaidAt is when the owner marked it paid (nil: not marked).
	PaidAt *time.Time `json:"paidAt"`
	paidBy string
}

// Received deposits: what the client paid and the practice kept.
var receivedStates = []any{deposits.Paid, deposits.Retained}

const lineColumns = `a.id, a.appointment_date, a.appointment_time, a.service_name, a.professional_name, a.status, a.price_cents, a.paid_at, a.paid_by,
	COALESCE(d.amount_cents, 0), d.paid_at`

// fromJoin reads an appointment with its received deposit, if any; the
// caller's WHERE names a.user_id.
const fromJoin = ` FROM appointments a LEFT JOIN deposits d ON d.appointment_id = a.id AND d.user_id = a.user_id
	AND d.state IN (?, ?) AND d.paid_at IS NOT NULL `

func scan(r interface{ Scan(...any) error }, now time.Time) (Line, error) {
	var l Line
	var paidAt, depositAt sql.NullTime
	if err := r.Scan(&l.AppointmentID, &l.Date, &l.Time, &l.Service, &l.Professional, &l.Status, &l.PriceCents, &paidAt, &l.paidBy,
		&l.DepositCents, &depositAt); err != nil {
		return l, err
	}
	if paidAt.Valid {
		t := paidAt.Time.UTC()
		l.PaidAt = &t
	}
	if depositAt.Valid {
		t := depositAt.Time.UTC()
		l.DepositAt = &t
	} else {
		l.DepositCents = 0
	}
	l.settle(now)
	return l, nil
}

// settle computes the line's state from what was read, at the owner's
// local time now.
func (l *Line) settle(now time.Time) {
	l.Billable = Billable(l.Status, l.Date, l.Time, now)
	l.DepositCents = min(l.DepositCents, l.PriceCents)
	l.ByDeposit = l.DepositCents >= l.PriceCents && l.DepositAt != nil
	l.Paid = l.ByDeposit || l.PaidAt != nil || l.PriceCents == 0
	if l.Paid {
		l.PaidCents = l.PriceCents
	} else {
		l.PaidCents = l.DepositCents
	}
	l.DueCents = l.PriceCents - l.PaidCents
}

// Billable says whether an appointment is charged: completed, or
// confirmed with its start at or before now (the owner's local time).
func Billable(status, date, clock string, now time.Time) bool {
	if status != "completed" && status != "confirmed" {
		return false
	}
	today := now.Format("2006-01-02")
	return date < today || (date == today && clock <= now.Format("15:04"))
}

// billableSQL is Billable in SQL, over the appointment a; its three
// parameters are the owner's date, date and time of day.
const billableSQL = `(a.status IN ('completed', 'confirmed') AND (a.appointment_date < ? OR (a.appointment_date = ? AND a.appointment_time <= ?)))`

func nowArgs(now time.Time) []any {
	today := now.Format("2006-01-02")
	return []any{today, today, now.Format("15:04")}
}

func lines(ctx context.Context, q db.Querier, now time.Time, where string, args ...any) ([]Line, error) {
	out := []Line{}
	err := db.Each(ctx, q, `SELECT `+lineColumns+fromJoin+where, append(append([]any{}, receivedStates...), args...), func(r *sql.Rows) error {
		l, err := scan(r, now)
		out = append(out, l)
		return err
	})
	return out, err
}

var (
	// ErrNotFound is an appointment that is not the owner's.
	ErrNotFound    = httpx.NewError(http.StatusNotFound, "not_found", "Agendamento não encontrado.")
	errNotBillable = httpx.NewError(http.StatusConflict, "not_attended",
		"Só um atendimento realizado (concluído, ou confirmado com o horário já passado) pode ser marcado como pago ou a receber.")
	errByDeposit = httpx.NewError(http.StatusConflict, "paid_by_deposit",
		"Este atendimento foi pago pelo sinal, que cobre o valor inteiro: não há o que receber.")
)

// Of is one appointment's payment (ErrNotFound: not the owner's).
func Of(ctx context.Context, q db.Querier, ownerID, appointmentID string, now time.Time) (*Line, error) {
	ls, err := lines(ctx, q, now, `WHERE a.id = ? AND a.user_id = ?`, appointmentID, ownerID)
	if err != nil {
		return nil, err
	}
	if len(ls) == 0 {
		return nil, ErrNotFound
	}
	return &ls[0], nil
}

// Mark sets an attended appointment "Pago" (paid) or back to "A receber",
// recording who (actorID, the signed-in account) and when, inside the
// owner's transaction. Marking what already is so changes nothing. A
// session the deposit paid whole cannot be made due; one not attended
// cannot be marked at all.
func Mark(ctx context.Context, tx *db.Tx, ownerID, appointmentID, actorID string, paid bool, at, local time.Time) (*Line, error) {
	l, err := Of(ctx, tx, ownerID, appointmentID, local)
	if err != nil {
		return nil, err
	}
	if !l.Billable {
		return nil, errNotBillable
	}
	if !paid && l.ByDeposit {
		return nil, errByDeposit
	}
	if paid == (l.PaidAt != nil) {
		return l, nil
	}
	var when any
	who := ""
	if paid {
		when, who = at.UTC(), actorID
	}
	if err := db.ExecOwned(ctx, tx, ErrNotFound, `UPDATE appointments SET paid_at = ?, paid_by = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
		when, who, at.UTC(), appointmentID, ownerID); err != nil {
		return nil, err
	}
	return Of(ctx, tx, ownerID, appointmentID, local)
}

// OfClient is every attended session of a client (by client key), newest
// first, at most limit, and what they owe over all of them.
func OfClient(ctx context.Context, q db.Querier, ownerID, clientKey string, now time.Time, limit int) ([]Line, int64, error) {
	ls, err := lines(ctx, q, now, `WHERE a.user_id = ? AND a.client_key = ? AND `+billableSQL+`
		ORDER BY a.appointment_date DESC, a.appointment_time DESC, a.id`, append([]any{ownerID, clientKey}, nowArgs(now)...)...)
	if err != nil {
		return nil, 0, err
	}
	var due int64
	for _, l := range ls {
		due += l.DueCents
	}
	if len(ls) > limit {
		ls = ls[:limit]
	}
	return ls, due, nil
}

// Filter narrows Owed to a professional's or a service's sessions ("":
// all).
type Filter struct{ Professional, Service string }

// Owed is what the attended sessions from..to (dates, inclusive) still
// owe, and how many owe something: the reports' "A receber". The same
// rule as Line.settle, summed in SQL: not marked paid, the price above
// the received deposit.
func Owed(ctx context.Context, q db.Querier, ownerID, from, to string, f Filter, now time.Time) (count int, cents int64, err error) {
	where, args := `a.user_id = ? AND a.appointment_date >= ? AND a.appointment_date <= ?`, []any{ownerID, from, to}
	if f.Professional != "" {
		where, args = where+` AND a.professional_id = ?`, append(args, f.Professional)
	}
	if f.Service != "" {
		where, args = where+` AND a.service_id = ?`, append(args, f.Service)
	}
	err = q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(a.price_cents - COALESCE(d.amount_cents, 0)), 0)`+fromJoin+
		`WHERE `+where+` AND `+billableSQL+` AND a.paid_at IS NULL AND a.price_cents > COALESCE(d.amount_cents, 0)`,
		append(append(append([]any{}, receivedStates...), args...), nowArgs(now)...)...).Scan(&count, &cents)
	return count, cents, err
}

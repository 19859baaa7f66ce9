package deposits

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// States of a deposit.
const (
	Pending   = "pending"   // "aguardando sinal": holds the time until ExpiresAt
	Paid      = "paid"      // the booking is confirmed
	Expired   = "expired"   // released unpaid at its deadline
	Cancelled = "cancelled" // the booking was cancelled before payment
	ToReturn  = "to_return" // paid, cancelled in time: the owner owes it back
	Returned  = "returned"  // the owner returned it ("Sinal devolvido")
	Retained  = "retained"  // kept: a no-show, or a late cancellation
)

// Sources of a change, as the history shows them.
const (
	ByClient = "client"
	ByOwner  = "owner"
	ByJob    = "job"
)

// ExpireJob is the kind of the job that releases an unpaid booking at its
// deadline; its payload is ExpireJobPayload. booking runs it.
const ExpireJob = "deposit.expire"

// ExpireJobPayload names the appointment whose deposit may have expired.
type ExpireJobPayload struct {
	OwnerID       string `json:"ownerId"`
	AppointmentID string `json:"appointmentId"`
}

// Deposit is one appointment's deposit.
type Deposit struct {
	AppointmentID string     `json:"appointmentId"`
	AmountCents   int64      `json:"amountCents"`
	State         string     `json:"state"`
	Provider      string     `json:"provider"`
	Reference     string     `json:"reference"`
	CopyPaste     string     `json:"copyPaste"`
	Receiver      string     `json:"receiver"`
	ExpiresAt     time.Time  `json:"expiresAt"`
	PaidAt        *time.Time `json:"paidAt"`
	ReturnedAt    *time.Time `json:"returnedAt"`
	// LatePayment: a payment arrived after the hold had expired (a
	// provider's): the owner must return it.
	LatePayment bool `json:"latePayment"`
	KeepLate    bool `json:"-"`
	KeepNoShow  bool `json:"-"`
	providerRef string
	ownerID     string
	CreatedAt   time.Time `json:"createdAt"`
}

// Event is one change of a deposit's state.
type Event struct {
	State  string    `json:"state"`
	Source string    `json:"source"`
	At     time.Time `json:"at"`
}

// PolicyOf reads a service's policy (Default when the service is gone).
func PolicyOf(ctx context.Context, q db.Querier, ownerID, serviceID string) (Policy, error) {
	p := Default()
	err := q.QueryRowContext(ctx, `SELECT deposit_kind, deposit_value, deposit_hold_minutes, deposit_keep_late, deposit_keep_no_show
		FROM services WHERE id = ? AND user_id = ?`, serviceID, ownerID).Scan(&p.Kind, &p.Value, &p.HoldMinutes, &p.KeepOnLateCancel, &p.KeepOnNoShow)
	if errors.Is(err, sql.ErrNoRows) {
		return Default(), nil
	}
	return p, err
}

// SavePolicy writes a service's policy (validated by the caller).
func SavePolicy(ctx context.Context, q db.Querier, ownerID, serviceID string, p Policy) error {
	_, err := q.ExecContext(ctx, `UPDATE services SET deposit_kind = ?, deposit_value = ?, deposit_hold_minutes = ?, deposit_keep_late = ?, deposit_keep_no_show = ?
		WHERE id = ? AND user_id = ?`, p.Kind, p.Value, p.HoldMinutes, p.KeepOnLateCancel, p.KeepOnNoShow, serviceID, ownerID)
	return err
}

// Opening is a deposit about to be asked, inside the booking's transaction.
type Opening struct {
	OwnerID, AppointmentID string
	AmountCents            int64
	Policy                 Policy
	Provider               string
	Now                    time.Time
	// Source is who asked for it (ByClient when empty; ByOwner: "Cobrar sinal").
	Source string
	// Minute is how long one minute of the hold lasts (0: a minute; the
	// end-to-end tests shorten it, config.DepositMinute).
	Minute time.Duration
}

// Open writes a pending deposit for a just-inserted appointment, its first
// history entry, and the job that expires it at its deadline — all in the
// booking's transaction (tx), so the hold and its expiry stand or fall
// together. It returns the deposit (no charge yet: SetCharge).
func Open(ctx context.Context, tx *db.Tx, q *jobs.Queue, o Opening) (*Deposit, error) {
	minute := o.Minute
	if minute <= 0 {
		minute = time.Minute
	}
	d := &Deposit{AppointmentID: o.AppointmentID, AmountCents: o.AmountCents, State: Pending, Provider: o.Provider, Reference: NewReference(),
		ExpiresAt: o.Now.Add(time.Duration(o.Policy.HoldMinutes) * minute), KeepLate: o.Policy.KeepOnLateCancel, KeepNoShow: o.Policy.KeepOnNoShow,
		CreatedAt: o.Now, ownerID: o.OwnerID}
	if _, err := tx.ExecContext(ctx, `INSERT INTO deposits (appointment_id, user_id, amount_cents, state, provider, reference, keep_late, keep_no_show, expires_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, d.AppointmentID, o.OwnerID, d.AmountCents, d.State, d.Provider, d.Reference, d.KeepLate, d.KeepNoShow,
		d.ExpiresAt.UTC(), o.Now, o.Now); err != nil {
		return nil, err
	}
	source := o.Source
	if source == "" {
		source = ByClient
	}
	if err := record(ctx, tx, o.OwnerID, o.AppointmentID, Pending, source, o.Now); err != nil {
		return nil, err
	}
	if q != nil {
		if err := q.Enqueue(ctx, tx, jobs.About{UserID: o.OwnerID, AppointmentID: o.AppointmentID}, ExpireJob,
			ExpireJobPayload{OwnerID: o.OwnerID, AppointmentID: o.AppointmentID}, d.ExpiresAt, 10); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// NewReference is a fresh txid: "AG" and 23 random letters and digits.
func NewReference() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 23)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "AG" + string(b)
}

// SetCharge stores a deposit's charge (its copy-and-paste text).
func SetCharge(ctx context.Context, q db.Querier, appointmentID string, c Charge, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE deposits SET provider = ?, provider_ref = ?, payload = ?, receiver = ?, updated_at = ? WHERE appointment_id = ?`,
		c.Provider, c.ProviderRef, c.CopyPaste, c.Receiver, now, appointmentID)
	return err
}

// SetFirstCharge stores a deposit's charge unless one is stored already:
// true when this call stored it (the caller then sends the Pix), so two
// makers of one charge — the booking's try and the charge job — send it once.
func SetFirstCharge(ctx context.Context, q db.Querier, appointmentID string, c Charge, now time.Time) (bool, error) {
	res, err := q.ExecContext(ctx, `UPDATE deposits SET provider = ?, provider_ref = ?, payload = ?, receiver = ?, updated_at = ? WHERE appointment_id = ? AND payload = ''`,
		c.Provider, c.ProviderRef, c.CopyPaste, c.Receiver, now, appointmentID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// record writes one history entry. Its id is a UUIDv7 (time-ordered,
// monotonic within the process), so two changes at one clock reading keep
// their order.
func record(ctx context.Context, q db.Querier, ownerID, appointmentID, state, source string, at time.Time) error {
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO deposit_events (id, appointment_id, user_id, state, source, at) VALUES (?, ?, ?, ?, ?, ?)`,
		id.String(), appointmentID, ownerID, state, source, at)
	return err
}

const columns = `appointment_id, user_id, amount_cents, state, provider, reference, provider_ref, payload, receiver, expires_at, paid_at, returned_at, late_payment, keep_late, keep_no_show, created_at`

func scan(r interface{ Scan(...any) error }) (*Deposit, error) {
	var d Deposit
	var paid, returned sql.NullTime
	if err := r.Scan(&d.AppointmentID, &d.ownerID, &d.AmountCents, &d.State, &d.Provider, &d.Reference, &d.providerRef, &d.CopyPaste, &d.Receiver,
		&d.ExpiresAt, &paid, &returned, &d.LatePayment, &d.KeepLate, &d.KeepNoShow, &d.CreatedAt); err != nil {
		return nil, err
	}
	d.ExpiresAt, d.CreatedAt = d.ExpiresAt.UTC(), d.CreatedAt.UTC()
	if paid.Valid {
		t := paid.Time.UTC()
		d.PaidAt = &t
	}
	if returned.Valid {
		t := returned.Time.UTC()
		d.ReturnedAt = &t
	}
	return &d, nil
}

// Get reads one appointment's deposit within its owner (nil, nil: none).
func Get(ctx context.Context, q db.Querier, ownerID, appointmentID string) (*Deposit, error) {
	d, err := scan(q.QueryRowContext(ctx, `SELECT `+columns+` FROM deposits WHERE appointment_id = ? AND user_id = ?`, appointmentID, ownerID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return d, err
}

// OfAppointment reads an appointment's deposit, whoever's it is (nil, nil:
// none): for the client's private page, which found the appointment by its
// token.
func OfAppointment(ctx context.Context, q db.Querier, appointmentID string) (*Deposit, error) {
	d, err := scan(q.QueryRowContext(ctx, `SELECT `+columns+` FROM deposits WHERE appointment_id = ?`, appointmentID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return d, err
}

// ByReference reads a deposit by its reference (a provider's webhook names
// it), whoever's it is (nil, nil: none).
func ByReference(ctx context.Context, q db.Querier, reference string) (*Deposit, error) {
	d, err := scan(q.QueryRowContext(ctx, `SELECT `+columns+` FROM deposits WHERE reference = ?`, reference))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return d, err
}

// OwnerID is whose deposit it is.
func (d *Deposit) OwnerID() string { return d.ownerID }

// ProviderRef is the provider's id of the payment.
func (d *Deposit) ProviderRef() string { return d.providerRef }

// History is a deposit's changes, oldest first.
func History(ctx context.Context, q db.Querier, ownerID, appointmentID string) ([]Event, error) {
	out := []Event{}
	err := db.Each(ctx, q, `SELECT state, source, at FROM deposit_events WHERE appointment_id = ? AND user_id = ? ORDER BY at, id`,
		[]any{appointmentID, ownerID}, func(r *sql.Rows) error {
			var e Event
			if err := r.Scan(&e.State, &e.Source, &e.At); err != nil {
				return err
			}
			e.At = e.At.UTC()
			out = append(out, e)
			return nil
		})
	return out, err
}

// ErrExpired answers a payment or a "Sinal recebido" after the hold ended.
var ErrExpired = httpx.NewError(http.StatusConflict, "deposit_expired", "O prazo do sinal terminou e o horário foi liberado. Combine um novo horário com o cliente.")

// move changes a deposit from one of the states in from to state, in tx,
// and records it: false when it was in none of them (someone else moved it
// first: the conditional update is the decision, on both engines).
func move(ctx context.Context, tx *db.Tx, ownerID, appointmentID string, from []string, state, source string, now time.Time, extra string, args ...any) (bool, error) {
	q := `UPDATE deposits SET state = ?, updated_at = ?` + extra + ` WHERE appointment_id = ? AND user_id = ? AND state IN (` + marks(len(from)) + `)`
	all := append(append([]any{state, now}, args...), appointmentID, ownerID)
	for _, f := range from {
		all = append(all, f)
	}
	res, err := tx.ExecContext(ctx, q, all...)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	return true, record(ctx, tx, ownerID, appointmentID, state, source, now)
}

func marks(n int) string {
	s := "?"
	for range n - 1 {
		s += ", ?"
	}
	return s
}

// MarkPaid turns a pending deposit paid (source: the owner's "Sinal
// recebido", or a provider). A deposit already paid answers false, nil (a
// replay changes nothing); one expired or cancelled answers ErrExpired.
func MarkPaid(ctx context.Context, tx *db.Tx, ownerID, appointmentID, source string, now time.Time) (bool, error) {
	ok, err := move(ctx, tx, ownerID, appointmentID, []string{Pending}, Paid, source, now, `, paid_at = ?`, now)
	if err != nil || ok {
		return ok, err
	}
	d, err := Get(ctx, tx, ownerID, appointmentID)
	if err != nil {
		return false, err
	}
	if d == nil {
		return false, ErrNotFound
	}
	if d.State == Pending || d.State == Paid || d.State == Retained || d.State == ToReturn || d.State == Returned {
		return false, nil
	}
	return false, ErrExpired
}

// FlagLatePayment records that a provider saw a payment arrive for a
// deposit whose hold had already ended: the booking stays released (never
// two people in one time) and the owner must return the money.
func FlagLatePayment(ctx context.Context, tx *db.Tx, ownerID, appointmentID, source string, now time.Time) error {
	_, err := move(ctx, tx, ownerID, appointmentID, []string{Expired, Cancelled}, ToReturn, source, now, `, paid_at = ?, late_payment = ?`, now, true)
	return err
}

// Expire releases a pending deposit whose deadline has passed: true when
// this call expired it (the caller then cancels the appointment in the same
// transaction). Paid, cancelled or not yet due: false.
func Expire(ctx context.Context, tx *db.Tx, ownerID, appointmentID string, now time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, `UPDATE deposits SET state = ?, updated_at = ? WHERE appointment_id = ? AND user_id = ? AND state = ? AND expires_at <= ?`,
		Expired, now, appointmentID, ownerID, Pending, now.UTC())
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	return true, record(ctx, tx, ownerID, appointmentID, Expired, ByJob, now)
}

// IsPending reports whether the appointment waits for its deposit.
func IsPending(ctx context.Context, q db.Querier, appointmentID string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM deposits WHERE appointment_id = ? AND state = ?`, appointmentID, Pending).Scan(&n)
	return n > 0, err
}

// Settle moves an appointment's deposit after its status changed, in the
// status change's transaction: a cancellation before payment cancels the
// deposit; a paid one is to be returned when cancelled in time, retained
// when cancelled past the owner's cutoff (if the policy keeps it then); a
// no-show retains a paid deposit (if the policy keeps it then) or has it
// returned. source is who changed the status.
func Settle(ctx context.Context, tx *db.Tx, ownerID, appointmentID, status, source string, now time.Time) error {
	d, err := Get(ctx, tx, ownerID, appointmentID)
	if err != nil || d == nil {
		return err
	}
	switch {
	case status == "cancelled" && d.State == Pending:
		_, err = move(ctx, tx, ownerID, appointmentID, []string{Pending}, Cancelled, source, now, "")
	case status == "cancelled" && d.State == Paid:
		late, err := pastCutoff(ctx, tx, ownerID, appointmentID, now)
		if err != nil {
			return err
		}
		to := ToReturn
		if late && d.KeepLate {
			to = Retained
		}
		_, err = move(ctx, tx, ownerID, appointmentID, []string{Paid}, to, source, now, "")
		return err
	case status == "no_show" && d.State == Paid:
		to := ToReturn
		if d.KeepNoShow {
			to = Retained
		}
		_, err = move(ctx, tx, ownerID, appointmentID, []string{Paid}, to, source, now, "")
	case (status == "confirmed" || status == "completed") && (d.State == Retained || d.State == ToReturn) && d.ReturnedAt == nil && !d.LatePayment:
		// Undone (re-confirmed, marked attended after all): the deposit is paid again.
		_, err = move(ctx, tx, ownerID, appointmentID, []string{Retained, ToReturn}, Paid, source, now, "")
	}
	return err
}

// pastCutoff reports whether now is past the owner's cancellation cutoff
// for the appointment (no cutoff: only once it has begun).
func pastCutoff(ctx context.Context, tx *db.Tx, ownerID, appointmentID string, now time.Time) (bool, error) {
	var starts time.Time
	var cutoff int
	err := tx.QueryRowContext(ctx, `SELECT a.starts_at, p.cancel_cutoff_hours FROM appointments a JOIN profiles p ON p.id = a.user_id WHERE a.id = ? AND a.user_id = ?`,
		appointmentID, ownerID).Scan(&starts, &cutoff)
	if err != nil {
		return false, err
	}
	return !now.Before(starts.Add(-time.Duration(cutoff) * time.Hour)), nil
}

// MarkReturned records "Sinal devolvido": the owner returned a paid deposit
// (to return, or paid, or retained and returned after all) by Pix on its own.
func MarkReturned(ctx context.Context, tx *db.Tx, ownerID, appointmentID string, now time.Time) error {
	ok, err := move(ctx, tx, ownerID, appointmentID, []string{ToReturn, Paid, Retained}, Returned, ByOwner, now, `, returned_at = ?`, now)
	if err != nil || ok {
		return err
	}
	d, err := Get(ctx, tx, ownerID, appointmentID)
	if err != nil {
		return err
	}
	if d == nil {
		return ErrNotFound
	}
	if d.State == Returned {
		return nil // a second tap
	}
	return errNotPaid
}

var errNotPaid = httpx.NewError(http.StatusConflict, "deposit_not_paid", "Este sinal não foi pago: não há o que devolver.")

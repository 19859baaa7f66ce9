// The owner's side of deposits (issue 29): an appointment's deposit and its
// history, "Sinal recebido", and the dashboard's "Sinais pendentes".

package agenda

import (
	"database/sql"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// registerDeposits adds the deposit routes.
func (h *Handlers) registerDeposits(mux *http.ServeMux) {
	mux.Handle("GET /api/appointments/{id}/deposit", h.Auth.RequireUser(httpx.Handle(h.deposit)))
	mux.Handle("POST /api/appointments/{id}/deposit/received", h.Auth.RequireUser(httpx.Handle(h.depositReceived)))
	mux.Handle("POST /api/appointments/{id}/deposit/returned", h.Auth.RequireUser(httpx.Handle(h.depositReturned)))
	mux.Handle("GET /api/deposits/pending", h.Auth.RequireUser(httpx.Handle(h.pendingDeposits)))
}

// DepositDetails is an appointment's deposit with its history.
type DepositDetails struct {
	*deposits.Deposit
	History []deposits.Event `json:"history"`
}

func (h *Handlers) deposit(w http.ResponseWriter, r *http.Request) error {
	ctx, owner, id := r.Context(), auth.UserID(r.Context()), r.PathValue("id")
	d, err := deposits.Get(ctx, h.Svc.DB, owner, id)
	if err != nil {
		return err
	}
	if d == nil {
		return deposits.ErrNotFound
	}
	hist, err := deposits.History(ctx, h.Svc.DB, owner, id)
	return httpx.Respond(w, http.StatusOK, DepositDetails{Deposit: d, History: hist}, err)
}

func (h *Handlers) depositReceived(w http.ResponseWriter, r *http.Request) error {
	ctx, owner, id := r.Context(), auth.UserID(r.Context()), r.PathValue("id")
	if err := h.Booking.ConfirmDeposit(ctx, owner, id, deposits.ByOwner); err != nil {
		return err
	}
	return h.deposit(w, r)
}

// depositReturned is "Sinal devolvido": the owner returned the deposit by Pix.
func (h *Handlers) depositReturned(w http.ResponseWriter, r *http.Request) error {
	ctx, owner, id := r.Context(), auth.UserID(r.Context()), r.PathValue("id")
	err := h.Svc.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		return deposits.MarkReturned(ctx, tx, owner, id, h.Svc.Clock.Now())
	})
	if err != nil {
		return err
	}
	return h.deposit(w, r)
}

// PendingDeposit is one line of "Sinais pendentes".
type PendingDeposit struct {
	AppointmentID    string    `json:"appointmentId"`
	AmountCents      int64     `json:"amountCents"`
	ExpiresAt        time.Time `json:"expiresAt"`
	ClientName       string    `json:"clientName"`
	ClientPhone      string    `json:"clientPhone"`
	ClientEmail      string    `json:"clientEmail"`
	ServiceName      string    `json:"serviceName"`
	ProfessionalName string    `json:"professionalName"`
	Date             string    `json:"date"`
	Time             string    `json:"time"`
}

// pendingDeposits lists the owner's bookings waiting for their deposit,
// the soonest deadline first (at most 200: a hold lasts at most a day).
func (h *Handlers) pendingDeposits(w http.ResponseWriter, r *http.Request) error {
	out := []PendingDeposit{}
	err := db.Each(r.Context(), h.Svc.DB, `SELECT d.appointment_id, d.amount_cents, d.expires_at, a.client_name, a.client_phone, a.client_email, a.service_name,
		a.professional_name, a.appointment_date, a.appointment_time FROM deposits d JOIN appointments a ON a.id = d.appointment_id
		WHERE d.user_id = ? AND d.state = ? AND a.status = 'awaiting_deposit' ORDER BY d.expires_at, d.appointment_id LIMIT 200`,
		[]any{auth.UserID(r.Context()), deposits.Pending}, func(rows *sql.Rows) error {
			var p PendingDeposit
			if err := rows.Scan(&p.AppointmentID, &p.AmountCents, &p.ExpiresAt, &p.ClientName, &p.ClientPhone, &p.ClientEmail, &p.ServiceName,
				&p.ProfessionalName, &p.Date, &p.Time); err != nil {
				return err
			}
			p.ExpiresAt = p.ExpiresAt.UTC()
			out = append(out, p)
			return nil
		})
	return httpx.Respond(w, http.StatusOK, out, err)
}

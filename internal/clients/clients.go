// Package clients derives the owner's clients from their appointments: one
// client per phone, or per e-mail when there is no phone (SPEC §3), with
// counts, last appointment and revenue, aggregated by the database.
package clients

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Client is one derived client.
type Client struct {
	Identifier        string `json:"identifier"`
	Name              string `json:"name"`
	Email             string `json:"email"`
	Phone             string `json:"phone"`
	AppointmentCount  int    `json:"appointmentCount"`
	LastAppointment   string `json:"lastAppointment"`
	TotalRevenueCents int64  `json:"totalRevenueCents"`
}

// The name, e-mail and phone shown are the client's most recent ones.
// Revenue counts what was not cancelled.
const query = `
WITH a AS (
	SELECT CASE WHEN client_phone <> '' THEN client_phone ELSE lower(client_email) END AS ident,
	       client_name, client_email, client_phone, appointment_date, appointment_time, price_cents, status
	FROM appointments WHERE user_id = ?
), agg AS (
	SELECT ident, COUNT(*) AS n, MAX(appointment_date) AS last_date,
	       SUM(CASE WHEN status <> 'cancelled' THEN price_cents ELSE 0 END) AS revenue
	FROM a GROUP BY ident
), latest AS (
	SELECT ident, client_name, client_email, client_phone,
	       ROW_NUMBER() OVER (PARTITION BY ident ORDER BY appointment_date DESC, appointment_time DESC) AS rn
	FROM a
)
SELECT agg.ident, latest.client_name, latest.client_email, latest.client_phone, agg.n, agg.last_date, agg.revenue
FROM agg JOIN latest ON latest.ident = agg.ident AND latest.rn = 1
ORDER BY agg.last_date DESC, latest.client_name, agg.ident`

// Service lists clients.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
}

// List returns a page of clients (limit 0: all) and how many there are.
func (s *Service) List(ctx context.Context, userID string, limit, offset int) ([]Client, int, error) {
	var total int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(DISTINCT CASE WHEN client_phone <> '' THEN client_phone ELSE lower(client_email) END)
		FROM appointments WHERE user_id = ?`, userID).Scan(&total); err != nil {
		return nil, 0, err
	}
	q, args := query, []any{userID}
	if limit > 0 {
		q += ` LIMIT ? OFFSET ?`
		args = append(args, limit, offset)
	}
	rows, err := s.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Client{}
	for rows.Next() {
		var c Client
		if err := rows.Scan(&c.Identifier, &c.Name, &c.Email, &c.Phone, &c.AppointmentCount, &c.LastAppointment, &c.TotalRevenueCents); err != nil {
			return nil, 0, err
		}
		out = append(out, c)
	}
	return out, total, rows.Err()
}

// cell neutralises values a spreadsheet would run as a formula.
func cell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

func brDate(iso string) string {
	if len(iso) != 10 {
		return iso
	}
	return iso[8:10] + "/" + iso[5:7] + "/" + iso[0:4]
}

// CSV writes the clients the way spreadsheets used in Brazil open them:
// UTF-8 with BOM, ';' separators, R$ amounts with a decimal comma, and values
// that start with = + - @ neutralised against formula injection.
func CSV(w interface{ Write([]byte) (int, error) }, list []Client) error {
	if _, err := w.Write([]byte("\uFEFF")); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	cw.UseCRLF = true
	if err := cw.Write([]string{"Nome", "Email", "Telefone", "Agendamentos", "Último Agendamento", "Receita Total"}); err != nil {
		return err
	}
	for _, c := range list {
		revenue := fmt.Sprintf("R$ %d,%02d", c.TotalRevenueCents/100, c.TotalRevenueCents%100)
		if err := cw.Write([]string{cell(c.Name), cell(c.Email), cell(c.Phone), strconv.Itoa(c.AppointmentCount), brDate(c.LastAppointment), revenue}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Handlers serves /api/clients.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/clients", h.Auth.RequireUser(httpx.Handle(h.list)))
	mux.Handle("GET /api/clients/export", h.Auth.RequireUser(httpx.Handle(h.export)))
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	if offset < 0 {
		offset = 0
	}
	list, total, err := h.Svc.List(r.Context(), auth.UserID(r.Context()), limit, offset)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"clients": list, "total": total})
	return nil
}

func (h *Handlers) export(w http.ResponseWriter, r *http.Request) error {
	list, _, err := h.Svc.List(r.Context(), auth.UserID(r.Context()), 0, 0)
	if err != nil {
		return err
	}
	name := "clientes-agendei-" + h.Svc.Clock.Now().Format("2006-01-02") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	return CSV(w, list)
}

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
	"github.com/agendei/agendei/internal/platform/memo"
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

// Clients are grouped by the stored client key (phone, else e-mail) on an
// index, ordered by their last appointment; revenue counts what was not
// cancelled. The name and contacts shown are the client's most recent ones,
// fetched afterwards for just the clients on the page.
const aggregate = `SELECT client_key, COUNT(*), MAX(appointment_date),
	SUM(CASE WHEN status <> 'cancelled' THEN price_cents ELSE 0 END)
	FROM appointments WHERE user_id = ? GROUP BY client_key
	ORDER BY MAX(appointment_date) DESC, client_key`

// Service lists clients.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
}

// List returns a page of clients (limit 0: all) and how many there are.
func (s *Service) List(ctx context.Context, userID string, limit, offset int) ([]Client, int, error) {
	var total int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT client_key FROM appointments WHERE user_id = ? GROUP BY client_key) k`, userID).Scan(&total); err != nil {
		return nil, 0, err
	}
	q, args := aggregate, []any{userID}
	if limit > 0 {
		q += ` LIMIT ? OFFSET ?`
		args = append(args, limit, offset)
	}
	rows, err := s.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, err
	}
	out := []Client{}
	index := map[string]int{}
	for rows.Next() {
		var c Client
		if err := rows.Scan(&c.Identifier, &c.AppointmentCount, &c.LastAppointment, &c.TotalRevenueCents); err != nil {
			rows.Close()
			return nil, 0, err
		}
		index[c.Identifier] = len(out)
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if err := s.latestContacts(ctx, userID, out, index, limit > 0); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// latestContacts fills each client's most recent name, e-mail and phone: for
// a page, only its clients' rows; for everything, one ordered pass.
func (s *Service) latestContacts(ctx context.Context, userID string, list []Client, index map[string]int, page bool) error {
	if len(list) == 0 {
		return nil
	}
	q := `SELECT client_key, client_name, client_email, client_phone FROM appointments WHERE user_id = ?`
	args := []any{userID}
	if page {
		q += ` AND client_key IN (?` + strings.Repeat(", ?", len(list)-1) + `)`
		for _, c := range list {
			args = append(args, c.Identifier)
		}
	}
	rows, err := s.DB.QueryContext(ctx, q+` ORDER BY client_key, appointment_date DESC, appointment_time DESC`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var last string
	for rows.Next() {
		var key, name, email, phone string
		if err := rows.Scan(&key, &name, &email, &phone); err != nil {
			return err
		}
		if key == last {
			continue // an older appointment of a client already filled
		}
		last = key
		if i, ok := index[key]; ok {
			list[i].Name, list[i].Email, list[i].Phone = name, email, phone
		}
	}
	return rows.Err()
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
	Memo *memo.Cache // nil: no cache
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/clients", h.Auth.RequireUser(h.Memo.Owner("clients", auth.UserID, httpx.Handle(h.list))))
	mux.Handle("GET /api/clients/export", h.Auth.RequireUser(h.Memo.Owner("clients.csv", auth.UserID, httpx.Handle(h.export))))
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

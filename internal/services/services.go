// Package services is what an owner sells: name, duration, price (integer
// centavos) and, optionally, which professionals perform it.
package services

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/slots"
)

// Service is one service of the catalogue.
type Service struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Description  *string `json:"description"`
	Duration     int     `json:"duration"`
	PriceCents   int64   `json:"priceCents"`
	BufferBefore int     `json:"bufferBefore"` // minutes kept free of other appointments before it
	BufferAfter  int     `json:"bufferAfter"`  // and after it
	Active       bool    `json:"active"`
	// Online services are held by video call at OnlineLink, or, when it is
	// "", at the owner's fixed room (the profile's roomLink): that replaces
	// the address in every message about them.
	Online          bool     `json:"online"`
	OnlineLink      string   `json:"onlineLink"`
	ProfessionalIDs []string `json:"professionalIds"`
	// Deposit is the service's deposit policy (issue 29; kind "none" by default).
	Deposit   deposits.Policy `json:"deposit"`
	CreatedAt time.Time       `json:"createdAt"`
}

// Input is the service form. Active defaults to true.
type Input struct {
	Name            string   `json:"name"`
	Description     string   `json:"description"`
	Duration        *int     `json:"duration"`
	PriceCents      *int64   `json:"priceCents"`
	BufferBefore    *int     `json:"bufferBefore"` // kept when left out of an update; 0 for a new service
	BufferAfter     *int     `json:"bufferAfter"`
	Active          *bool    `json:"active"`
	Online          *bool    `json:"online"`     // kept when left out of an update; false for a new service
	OnlineLink      *string  `json:"onlineLink"` // likewise; an https link or ""
	ProfessionalIDs []string `json:"professionalIds"`
	// Deposit is kept when left out of an update; none for a new service.
	Deposit *deposits.Policy `json:"deposit"`
}

const (
	maxDuration = slots.MaxDuration
	maxPrice    = 100_000_00 // R$ 100.000,00
	maxBuffer   = slots.MaxBuffer
)

var (
	errRequired     = httpx.Validation("Preencha todos os campos obrigatórios.")
	errDuration     = httpx.Validation("A duração deve ser de pelo menos 1 minuto (e no máximo 24 horas).")
	errPrice        = httpx.Validation("O preço deve ser zero ou maior (até R$ 100.000,00).")
	errTooLong      = httpx.Validation("O nome deve ter no máximo 120 caracteres e a descrição, 1000.")
	errProfessional = httpx.Validation("Escolha apenas profissionais da sua equipe.")
	errBuffer       = httpx.Validation("As margens antes e depois do serviço devem ser de 0 a 240 minutos.")
	errNotFound     = httpx.NewError(http.StatusNotFound, "not_found", "Serviço não encontrado.")
)

// Catalog manages services, always within one owner.
type Catalog struct {
	DB    *db.DB
	Clock clock.Clock
}

func validate(in *Input) (desc any, err error) {
	in.Name = brfmt.OneLine(in.Name) // it goes into WhatsApp parameters
	in.Description = strings.TrimSpace(in.Description)
	if in.Name == "" || in.Duration == nil || in.PriceCents == nil {
		return nil, errRequired
	}
	if *in.Duration < 1 || *in.Duration > maxDuration {
		return nil, errDuration
	}
	if *in.PriceCents < 0 || *in.PriceCents > maxPrice {
		return nil, errPrice
	}
	if utf8.RuneCountInString(in.Name) > 120 || utf8.RuneCountInString(in.Description) > 1000 {
		return nil, errTooLong
	}
	for _, b := range []*int{in.BufferBefore, in.BufferAfter} {
		if b != nil && (*b < 0 || *b > maxBuffer) {
			return nil, errBuffer
		}
	}
	if in.OnlineLink != nil {
		link, err := place.Link(*in.OnlineLink)
		if err != nil {
			return nil, err
		}
		in.OnlineLink = &link
	}
	if in.Deposit != nil {
		if err := in.Deposit.Validate(*in.PriceCents); err != nil {
			return nil, err
		}
	}
	if in.Description == "" {
		return nil, nil
	}
	return in.Description, nil
}

// setProfessionals replaces the service's links, accepting only the owner's professionals.
func setProfessionals(ctx context.Context, tx *db.Tx, userID, serviceID string, ids []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM service_professionals WHERE service_id = ?`, serviceID); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, pid := range ids {
		if seen[pid] {
			continue
		}
		seen[pid] = true
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM professionals WHERE id = ? AND user_id = ?`, pid, userID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return errProfessional
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO service_professionals (service_id, professional_id) VALUES (?, ?)`, serviceID, pid); err != nil {
			return err
		}
	}
	return nil
}

// List returns the owner's services, newest first.
func (c *Catalog) List(ctx context.Context, userID string) ([]Service, error) {
	rows, err := c.DB.QueryContext(ctx, `SELECT id, name, description, duration, price_cents, buffer_before, buffer_after, active, online, online_link, created_at,
		deposit_kind, deposit_value, deposit_hold_minutes, deposit_keep_late, deposit_keep_no_show FROM services WHERE user_id = ? ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, err
	}
	out := []Service{}
	byID := map[string]int{}
	for rows.Next() {
		var s Service
		var desc sql.NullString
		if err := rows.Scan(&s.ID, &s.Name, &desc, &s.Duration, &s.PriceCents, &s.BufferBefore, &s.BufferAfter, &s.Active, &s.Online, &s.OnlineLink, &s.CreatedAt,
			&s.Deposit.Kind, &s.Deposit.Value, &s.Deposit.HoldMinutes, &s.Deposit.KeepOnLateCancel, &s.Deposit.KeepOnNoShow); err != nil {
			rows.Close()
			return nil, err
		}
		if desc.Valid {
			s.Description = &desc.String
		}
		s.CreatedAt = s.CreatedAt.UTC()
		s.ProfessionalIDs = []string{}
		byID[s.ID] = len(out)
		out = append(out, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	err = Links(ctx, c.DB, userID, func(serviceID, professionalID string) {
		if i, ok := byID[serviceID]; ok {
			out[i].ProfessionalIDs = append(out[i].ProfessionalIDs, professionalID)
		}
	})
	return out, err
}

// Links reads which professionals perform the owner's services, calling each
// with every (service, professional) pair in professional id order: the one
// read of the links, for the owner's catalogue and the public profile.
func Links(ctx context.Context, q db.Querier, userID string, each func(serviceID, professionalID string)) error {
	rows, err := q.QueryContext(ctx, `SELECT sp.service_id, sp.professional_id FROM service_professionals sp
		JOIN services s ON s.id = sp.service_id WHERE s.user_id = ? ORDER BY sp.professional_id`, userID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var sid, pid string
		if err := rows.Scan(&sid, &pid); err != nil {
			return err
		}
		each(sid, pid)
	}
	return rows.Err()
}

func (c *Catalog) get(ctx context.Context, userID, id string) (*Service, error) {
	all, err := c.List(ctx, userID)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ID == id {
			return &all[i], nil
		}
	}
	return nil, errNotFound
}

// Create adds a service.
func (c *Catalog) Create(ctx context.Context, userID string, in Input) (*Service, error) {
	desc, err := validate(&in)
	if err != nil {
		return nil, err
	}
	active := in.Active == nil || *in.Active
	var id string
	err = c.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var err error
		if id, err = Insert(ctx, tx, userID, in.Name, desc, *in.Duration, *in.PriceCents, active, c.Clock.Now()); err != nil {
			return err
		}
		if in.BufferBefore != nil || in.BufferAfter != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE services SET buffer_before = ?, buffer_after = ? WHERE id = ?`, deref(in.BufferBefore), deref(in.BufferAfter), id); err != nil {
				return err
			}
		}
		if in.Online != nil || in.OnlineLink != nil {
			online, link := in.Online != nil && *in.Online, ""
			if in.OnlineLink != nil {
				link = *in.OnlineLink
			}
			if _, err := tx.ExecContext(ctx, `UPDATE services SET online = ?, online_link = ? WHERE id = ?`, online, link, id); err != nil {
				return err
			}
		}
		if in.Deposit != nil {
			if err := deposits.SavePolicy(ctx, tx, userID, id, *in.Deposit); err != nil {
				return err
			}
		}
		return setProfessionals(ctx, tx, userID, id, in.ProfessionalIDs)
	})
	if err != nil {
		return nil, err
	}
	return c.get(ctx, userID, id)
}

// Insert writes one validated service inside the caller's transaction and
// returns its id. desc is nil for no description.
func Insert(ctx context.Context, tx *db.Tx, userID, name string, desc any, duration int, priceCents int64, active bool, now time.Time) (string, error) {
	id := uuid.NewString()
	_, err := tx.ExecContext(ctx, `INSERT INTO services (id, user_id, name, description, duration, price_cents, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, userID, name, desc, duration, priceCents, active, now, now)
	return id, err
}

// Update edits a service; the professional links are replaced when given.
func (c *Catalog) Update(ctx context.Context, userID, id string, in Input) (*Service, error) {
	desc, err := validate(&in)
	if err != nil {
		return nil, err
	}
	err = c.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		q := `UPDATE services SET name = ?, description = ?, duration = ?, price_cents = ?, updated_at = ?`
		args := []any{in.Name, desc, *in.Duration, *in.PriceCents, c.Clock.Now()}
		if in.Active != nil {
			q += `, active = ?`
			args = append(args, *in.Active)
		}
		if in.BufferBefore != nil {
			q += `, buffer_before = ?`
			args = append(args, *in.BufferBefore)
		}
		if in.BufferAfter != nil {
			q += `, buffer_after = ?`
			args = append(args, *in.BufferAfter)
		}
		if in.Online != nil {
			q += `, online = ?`
			args = append(args, *in.Online)
		}
		if in.OnlineLink != nil {
			q += `, online_link = ?`
			args = append(args, *in.OnlineLink)
		}
		if err := db.ExecOwned(ctx, tx, errNotFound, q+` WHERE id = ? AND user_id = ?`, append(args, id, userID)...); err != nil {
			return err
		}
		if in.Deposit != nil {
			if err := deposits.SavePolicy(ctx, tx, userID, id, *in.Deposit); err != nil {
				return err
			}
		} else {
			// The policy kept as it is must still fit the new price: a fixed
			// R$ 80,00 deposit on a service lowered to R$ 20,00 is refused
			// as the same policy sent with that price would be.
			kept, err := deposits.PolicyOf(ctx, tx, userID, id)
			if err != nil {
				return err
			}
			if err := kept.Validate(*in.PriceCents); err != nil {
				return err
			}
		}
		if in.ProfessionalIDs == nil {
			return nil
		}
		return setProfessionals(ctx, tx, userID, id, in.ProfessionalIDs)
	})
	if err != nil {
		return nil, err
	}
	return c.get(ctx, userID, id)
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// Delete removes a service.
func (c *Catalog) Delete(ctx context.Context, userID, id string) error {
	return c.DB.OwnerExec(ctx, userID, errNotFound, `DELETE FROM services WHERE id = ? AND user_id = ?`, id, userID)
}

// Handlers serves /api/services.
type Handlers struct {
	Catalog *Catalog
	Auth    *auth.Handlers
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/services", h.Auth.RequireTeam(httpx.Handle(h.list)))
	mux.Handle("POST /api/services", h.Auth.RequireUser(httpx.Handle(h.create)))
	mux.Handle("PUT /api/services/{id}", h.Auth.RequireUser(httpx.Handle(h.update)))
	mux.Handle("DELETE /api/services/{id}", h.Auth.RequireUser(httpx.Handle(h.delete)))
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	ss, err := h.Catalog.List(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, ss, err)
}

func (h *Handlers) create(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	s, err := h.Catalog.Create(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusCreated, s, err)
}

func (h *Handlers) update(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	s, err := h.Catalog.Update(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), in)
	return httpx.Respond(w, http.StatusOK, s, err)
}

func (h *Handlers) delete(w http.ResponseWriter, r *http.Request) error {
	if err := h.Catalog.Delete(r.Context(), auth.UserID(r.Context()), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

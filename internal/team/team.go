// Package team is the owner's professionals: the people clients book with.
package team

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Professional is one member of the team.
type Professional struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	Specialization string  `json:"specialization"`
	Email          *string `json:"email"`
	PhotoURL       string  `json:"photoUrl"`
	Active         bool    `json:"active"`
	// The council registration (issue 43): council initials ("CRP"), UF
	// and number as the card prints them, all three empty when none;
	// CouncilLabel is them on one line ("CRP 06/12345").
	Council       string    `json:"council"`
	CouncilUF     string    `json:"councilUf"`
	CouncilNumber string    `json:"councilNumber"`
	CouncilLabel  string    `json:"councilLabel"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
}

// Input is the add/edit form.
type Input struct {
	Name           string `json:"name"`
	Specialization string `json:"specialization"`
	Email          string `json:"email"`
	// Council, CouncilUF and CouncilNumber: all three or none
	// (ValidateCouncil); left out, the registration is cleared.
	Council       string `json:"council"`
	CouncilUF     string `json:"councilUf"`
	CouncilNumber string `json:"councilNumber"`
}

var (
	errRequired = httpx.Validation("Nome e especialização são obrigatórios.")
	errTooLong  = httpx.Validation("Nome e especialização devem ter no máximo 120 caracteres.")
	errNotFound = httpx.NewError(http.StatusNotFound, "not_found", "Profissional não encontrado.")
)

// Service manages professionals, always within one owner.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
}

func validate(in *Input) (email any, err error) {
	// Names go into messages (WhatsApp parameters refuse tabs, new lines
	// and runs of spaces): one line each.
	in.Name, in.Specialization, in.Email = brfmt.OneLine(in.Name), brfmt.OneLine(in.Specialization), strings.TrimSpace(in.Email)
	if in.Name == "" || in.Specialization == "" {
		return nil, errRequired
	}
	if utf8.RuneCountInString(in.Name) > 120 || utf8.RuneCountInString(in.Specialization) > 120 {
		return nil, errTooLong
	}
	if err := ValidateCouncil(&in.Council, &in.CouncilUF, &in.CouncilNumber); err != nil {
		return nil, err
	}
	if in.Email == "" {
		return nil, nil // stored as NULL, as the spec says
	}
	e, err := auth.NormalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	return e, nil
}

const columns = `id, name, specialization, email, photo_url, active, council, council_uf, council_number, created_at, updated_at`

func scan(row interface{ Scan(...any) error }) (*Professional, error) {
	var p Professional
	var email sql.NullString
	if err := row.Scan(&p.ID, &p.Name, &p.Specialization, &email, &p.PhotoURL, &p.Active, &p.Council, &p.CouncilUF, &p.CouncilNumber, &p.CreatedAt, &p.UpdatedAt); err != nil {
		return nil, err
	}
	p.CouncilLabel = CouncilLabel(p.Council, p.CouncilUF, p.CouncilNumber)
	if email.Valid {
		p.Email = &email.String
	}
	p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	return &p, nil
}

// List returns the owner's professionals, newest first.
func (s *Service) List(ctx context.Context, userID string) ([]Professional, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT `+columns+` FROM professionals WHERE user_id = ? ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Professional{}
	for rows.Next() {
		p, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, rows.Err()
}

func (s *Service) get(ctx context.Context, userID, id string) (*Professional, error) {
	p, err := scan(s.DB.QueryRowContext(ctx, `SELECT `+columns+` FROM professionals WHERE id = ? AND user_id = ?`, id, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return p, err
}

// Create adds an active professional.
func (s *Service) Create(ctx context.Context, userID string, in Input) (*Professional, error) {
	email, err := validate(&in)
	if err != nil {
		return nil, err
	}
	var id string
	err = s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var err error
		id, err = Insert(ctx, tx, userID, in.Name, in.Specialization, email, s.Clock.Now())
		if err != nil || in.Council == "" {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE professionals SET council = ?, council_uf = ?, council_number = ? WHERE id = ?`, in.Council, in.CouncilUF, in.CouncilNumber, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.get(ctx, userID, id)
}

// Insert writes an active professional (inside the caller's transaction
// when q is one, as onboarding's "Quem atende?" does) and returns its id.
// email is nil or a normalised address.
func Insert(ctx context.Context, q db.Querier, userID, name, specialization string, email any, now time.Time) (string, error) {
	id := uuid.NewString()
	_, err := q.ExecContext(ctx, `INSERT INTO professionals (id, user_id, name, specialization, email, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, TRUE, ?, ?)`,
		id, userID, name, specialization, email, now, now)
	return id, err
}

// Update edits name, specialization, e-mail and council registration.
func (s *Service) Update(ctx context.Context, userID, id string, in Input) (*Professional, error) {
	email, err := validate(&in)
	if err != nil {
		return nil, err
	}
	if err := s.DB.OwnerExec(ctx, userID, errNotFound, `UPDATE professionals SET name = ?, specialization = ?, email = ?, council = ?, council_uf = ?, council_number = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
		in.Name, in.Specialization, email, in.Council, in.CouncilUF, in.CouncilNumber, s.Clock.Now(), id, userID); err != nil {
		return nil, err
	}
	return s.get(ctx, userID, id)
}

// SetActive turns a professional on or off.
func (s *Service) SetActive(ctx context.Context, userID, id string, active bool) (*Professional, error) {
	if err := s.DB.OwnerExec(ctx, userID, errNotFound, `UPDATE professionals SET active = ?, updated_at = ? WHERE id = ? AND user_id = ?`, active, s.Clock.Now(), id, userID); err != nil {
		return nil, err
	}
	return s.get(ctx, userID, id)
}

// Delete removes a professional, and their own sign-in with them.
func (s *Service) Delete(ctx context.Context, userID, id string) error {
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if err := auth.DropMember(ctx, tx, userID, id); err != nil {
			return err
		}
		return db.ExecOwned(ctx, tx, errNotFound, `DELETE FROM professionals WHERE id = ? AND user_id = ?`, id, userID)
	})
}

// Handlers serves /api/professionals.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	// A professional's own sign-in sees their own row (the agenda's
	// choices); the team is the owner's.
	mux.Handle("GET /api/professionals", h.Auth.RequireTeam(httpx.Handle(h.list)))
	mux.Handle("POST /api/professionals", h.Auth.RequireUser(httpx.Handle(h.create)))
	mux.Handle("PUT /api/professionals/{id}", h.Auth.RequireUser(httpx.Handle(h.update)))
	mux.Handle("PATCH /api/professionals/{id}", h.Auth.RequireUser(httpx.Handle(h.setActive)))
	mux.Handle("DELETE /api/professionals/{id}", h.Auth.RequireUser(httpx.Handle(h.delete)))
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	ps, err := h.Svc.List(r.Context(), auth.UserID(r.Context()))
	if me := auth.Professional(r.Context()); me != "" && err == nil {
		ps = slices.DeleteFunc(ps, func(p Professional) bool { return p.ID != me })
	}
	return httpx.Respond(w, http.StatusOK, ps, err)
}

func (h *Handlers) create(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := h.Svc.Create(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusCreated, p, err)
}

func (h *Handlers) update(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := h.Svc.Update(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), in)
	return httpx.Respond(w, http.StatusOK, p, err)
}

func (h *Handlers) setActive(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Active *bool `json:"active"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Active == nil {
		return httpx.Validation("Informe se o profissional está ativo.")
	}
	p, err := h.Svc.SetActive(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), *in.Active)
	return httpx.Respond(w, http.StatusOK, p, err)
}

func (h *Handlers) delete(w http.ResponseWriter, r *http.Request) error {
	if err := h.Svc.Delete(r.Context(), auth.UserID(r.Context()), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// Package onboarding saves the three-step first setup (profile, services,
// weekly hours and who attends) in one transaction and starts the 7-day
// trial: answered whole, the public link books at once.
package onboarding

import (
	"context"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/hours"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/services"
	"github.com/agendei/agendei/internal/team"
)

// ServiceDraft is one service of step 2. Duration nil or name blank: skipped.
type ServiceDraft struct {
	Name        string `json:"name"`
	Duration    *int   `json:"duration"`
	PriceCents  *int64 `json:"priceCents"`
	Description string `json:"description"`
}

// Input is the whole onboarding.
type Input struct {
	Name           string         `json:"name"`
	Area           string         `json:"area"`
	PublicUsername string         `json:"publicUsername"`
	Description    string         `json:"description"`
	Services       []ServiceDraft `json:"services"`
	Days           []hours.Day    `json:"days"`
	// Team answers "Quem atende?" (nil: nobody yet; the owner adds
	// professionals later): "me" makes the owner, by the profile's name and
	// area, the professional of every service; "team" adds the names given.
	Team *Team `json:"team"`
}

// Team is who performs the services. A service linked to no professional
// is performed by every one, so the services need no links.
type Team struct {
	Mode  string   `json:"mode"` // "me" or "team"
	Names []string `json:"names"`
}

var errTeam = httpx.Validation("Diga quem atende: só você, ou os nomes da sua equipe (até 20, com até 120 caracteres cada).")

// who are the professionals a Team answer adds.
func (t *Team) who(name string) ([]string, error) {
	if t == nil {
		return nil, nil
	}
	switch t.Mode {
	case "me":
		return []string{name}, nil
	case "team":
		var out []string
		for _, n := range t.Names {
			if n = strings.Join(strings.Fields(n), " "); n != "" {
				if utf8.RuneCountInString(n) > 120 {
					return nil, errTeam
				}
				out = append(out, n)
			}
		}
		if len(out) == 0 || len(out) > 20 {
			return nil, errTeam
		}
		return out, nil
	}
	return nil, errTeam
}

var (
	errRequired = httpx.Validation("Preencha todos os campos obrigatórios.")
	errServices = httpx.Validation("Configure pelo menos um serviço.")
	errTaken    = httpx.NewError(http.StatusConflict, "username_taken", "Este nome de usuário já está sendo usado. Escolha outro.")
)

// Result tells where the trial stands after onboarding.
type Result struct {
	TrialEndsAt time.Time `json:"trialEndsAt"`
}

// Service saves onboarding.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
}

// Finish validates and saves everything at once, or nothing.
func (s *Service) Finish(ctx context.Context, userID string, in Input) (*Result, error) {
	in.Name, in.Area, in.Description = brfmt.OneLine(in.Name), strings.TrimSpace(in.Area), strings.TrimSpace(in.Description)
	username := profiles.NormalizeUsername(in.PublicUsername)
	if in.Name == "" || in.Area == "" || username == "" {
		return nil, errRequired
	}
	if p := profiles.UsernameProblem(username); p != "" {
		return nil, httpx.Validation(p)
	}
	if utf8.RuneCountInString(in.Name) > 200 || utf8.RuneCountInString(in.Area) > 200 || utf8.RuneCountInString(in.Description) > 2000 {
		return nil, httpx.Validation("Um dos campos passou do tamanho máximo permitido.")
	}
	var drafts []ServiceDraft
	for _, d := range in.Services {
		d.Name, d.Description = brfmt.OneLine(d.Name), strings.TrimSpace(d.Description)
		if d.Name == "" || d.Duration == nil {
			continue // the spec skips incomplete drafts at save
		}
		if *d.Duration < 1 || *d.Duration > 24*60 {
			return nil, httpx.Validation("A duração deve ser de pelo menos 1 minuto (e no máximo 24 horas).")
		}
		if d.PriceCents == nil {
			zero := int64(0)
			d.PriceCents = &zero
		}
		if *d.PriceCents < 0 || *d.PriceCents > 100_000_00 {
			return nil, httpx.Validation("O preço deve ser zero ou maior (até R$ 100.000,00).")
		}
		if utf8.RuneCountInString(d.Name) > 120 || utf8.RuneCountInString(d.Description) > 1000 {
			return nil, httpx.Validation("O nome deve ter no máximo 120 caracteres e a descrição, 1000.")
		}
		drafts = append(drafts, d)
	}
	if len(drafts) == 0 {
		return nil, errServices
	}
	pros, err := in.Team.who(in.Name)
	if err != nil {
		return nil, err
	}
	in.Days = hours.Normalize(in.Days)
	if err := hours.Validate(in.Days); err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	trialEnd := now.Add(profiles.TrialLength)
	err = s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if err := db.ExecOwned(ctx, tx, httpx.ErrNotFound, `UPDATE profiles SET name = ?, area = ?, description = ?, public_username = ?,
			trial_ends_at = COALESCE(trial_ends_at, ?), updated_at = ? WHERE id = ?`,
			in.Name, in.Area, in.Description, username, trialEnd, now, userID); err != nil {
			return err
		}
		for _, d := range drafts {
			var desc any
			if d.Description != "" {
				desc = d.Description
			}
			if _, err := services.Insert(ctx, tx, userID, d.Name, desc, *d.Duration, *d.PriceCents, true, now); err != nil {
				return err
			}
		}
		if err := hours.Replace(ctx, tx, userID, in.Days); err != nil {
			return err
		}
		for _, name := range pros {
			if _, err := team.Insert(ctx, tx, userID, name, in.Area, nil, now); err != nil {
				return err
			}
		}
		return tx.QueryRowContext(ctx, `SELECT trial_ends_at FROM profiles WHERE id = ?`, userID).Scan(&trialEnd)
	})
	if db.IsUniqueViolation(err) {
		return nil, errTaken
	}
	if err != nil {
		return nil, err
	}
	return &Result{TrialEndsAt: trialEnd.UTC()}, nil
}

// Handlers serves POST /api/onboarding.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register adds the route.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("POST /api/onboarding", h.Auth.RequireUser(httpx.Handle(h.finish)))
}

func (h *Handlers) finish(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	res, err := h.Svc.Finish(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, res, err)
}

package profiles

import (
	"context"
	"net/http"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// PublicPage are the owner's settings of what the public page shows
// (issue 43 §3). HidePrices: "Ocultar preços na página pública" — the
// health councils forbid price as advertising, so the public profile
// answer carries no price and the page, the booking form and its
// confirmation say "Valor informado no atendimento". The owner's own
// screens keep every price.
type PublicPage struct {
	HidePrices bool `json:"hidePrices"`
}

// PublicPage returns the owner's public-page settings.
func (s *Service) PublicPage(ctx context.Context, userID string) (*PublicPage, error) {
	var p PublicPage
	if err := s.DB.QueryRowContext(ctx, `SELECT hide_prices FROM profiles WHERE id = ?`, userID).Scan(&p.HidePrices); err != nil {
		return nil, err
	}
	return &p, nil
}

// SavePublicPage stores the owner's public-page settings. The write bumps
// the owner's data version (a profiles row), so the cached public answers
// are computed again.
func (s *Service) SavePublicPage(ctx context.Context, userID string, in PublicPage) (*PublicPage, error) {
	if err := s.DB.OwnerExec(ctx, userID, httpx.ErrNotFound, `UPDATE profiles SET hide_prices = ?, updated_at = ? WHERE id = ?`, in.HidePrices, s.Clock.Now(), userID); err != nil {
		return nil, err
	}
	return s.PublicPage(ctx, userID)
}

func (h *Handlers) publicPage(w http.ResponseWriter, r *http.Request) error {
	p, err := h.Svc.PublicPage(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, p, err)
}

func (h *Handlers) savePublicPage(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		HidePrices *bool `json:"hidePrices"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.HidePrices == nil {
		return httpx.Validation("Informe se os preços ficam ocultos na página pública.")
	}
	p, err := h.Svc.SavePublicPage(r.Context(), auth.UserID(r.Context()), PublicPage{HidePrices: *in.HidePrices})
	return httpx.Respond(w, http.StatusOK, p, err)
}

package booking

import (
	"context"

	"github.com/agendei/agendei/internal/schedule"
)

// OwnerSetup is the owner's schedule setup as of their current data version,
// from the same per-version cache the slot engine decides with: the agenda's
// grid draws each column's hours and closed days from this plan, so what the
// owner sees shaded is what a booking would be refused over.
func (s *Service) OwnerSetup(ctx context.Context, ownerID string) (*schedule.Setup, error) {
	return s.setupOf(ctx, ownerID)
}

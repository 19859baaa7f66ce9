package booking

import (
	"context"

	"github.com/agendei/agendei/internal/schedule"
)

// OwnerSetupAt is the owner's schedule setup as of a data version the caller
// read in the same round trip as its own data, from the same per-version
// cache the slot engine decides with: the agenda's grid draws each column's
// hours and closed days from this plan, so what the owner sees shaded is
// what a booking would be refused over.
func (s *Service) OwnerSetupAt(ctx context.Context, ownerID string, version int64) (*schedule.Setup, error) {
	if s.Setups == nil {
		return schedule.Load(ctx, s.DB, ownerID)
	}
	return s.Setups.Get(ctx, ownerID, version)
}

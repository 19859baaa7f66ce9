// What a professional's own sign-in may do in the agenda (issue 43 §0): see
// their own appointments and clients, and book, move and change the status
// of their own appointments. Every route here keeps the owner's tenancy
// check (auth.UserID is the practice's owner); these checks narrow it to the
// professional (auth.Professional), and another professional's appointment
// answers 404, as another owner's does.

package agenda

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

var errOtherProfessional = httpx.NewError(http.StatusForbidden, "other_professional", "Você só pode marcar e mover os seus próprios atendimentos.")

// forProfessional is the professional id a professional's sign-in must
// read and write under: theirs, whatever was asked; "" for the owner (who
// may ask any).
func forProfessional(ctx context.Context, asked string) string {
	if me := auth.Professional(ctx); me != "" {
		return me
	}
	return asked
}

// ownAppointment answers 404 when a professional's sign-in names an
// appointment that is not theirs (nil for the owner, who reaches any of
// theirs through each query's own tenancy check).
func (s *Service) ownAppointment(ctx context.Context, ownerID, id string) error {
	me := auth.Professional(ctx)
	if me == "" {
		return nil
	}
	var pro sql.NullString
	err := s.DB.QueryRowContext(ctx, `SELECT professional_id FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).Scan(&pro)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && pro.String != me) {
		return errNotFound
	}
	return err
}

// checkTarget refuses a professional's sign-in a write for another
// professional (a new appointment or a move to their column).
func checkTarget(ctx context.Context, professionalID string) error {
	if me := auth.Professional(ctx); me != "" && professionalID != me {
		return errOtherProfessional
	}
	return nil
}

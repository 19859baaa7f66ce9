package booking

import (
	"context"
	"database/sql"
	"errors"

	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/db"
)

// placeOf is where an appointment happens, as its service and the owner's
// profile say now: a moved address or a new room link reaches the reminder
// and the next invite (the place is not part of what was sold, unlike the
// price). A deleted service leaves the address.
func placeOf(ctx context.Context, q db.Querier, appointmentID string) (place.Place, error) {
	var owner string
	var service sql.NullString
	err := q.QueryRowContext(ctx, `SELECT user_id, service_id FROM appointments WHERE id = ?`, appointmentID).Scan(&owner, &service)
	if errors.Is(err, sql.ErrNoRows) {
		return place.Place{}, nil
	}
	if err != nil {
		return place.Place{}, err
	}
	return place.Where(ctx, q, owner, service.String)
}

// locate fills b's place when it is not known yet.
func locate(ctx context.Context, q db.Querier, b booked) error {
	if b.Booked == nil || b.Place != (place.Place{}) {
		return nil
	}
	p, err := placeOf(ctx, q, b.ID)
	b.Place = p
	return err
}

// placeDetail is the e-mails' row of where: 'Local' and the address, or
// 'Atendimento online' and the link; none when the owner has set no address.
func (b booked) placeDetail() []mail.Detail {
	switch p := b.Place; {
	case p.Online:
		return []mail.Detail{{Label: "Atendimento online", Value: p.Text()}}
	case p.Address != "":
		return []mail.Detail{{Label: "Local", Value: p.Address}}
	}
	return nil
}

// placeLinks are the e-mails' links to the place: the video call, or the
// address on a map.
func (b booked) placeLinks() []mail.Link {
	switch p := b.Place; {
	case p.Online && p.Link != "":
		return []mail.Link{{Label: "Entrar na videochamada", URL: p.Link}}
	case p.MapsURL != "":
		return []mail.Link{{Label: "Ver no mapa", URL: p.MapsURL}}
	}
	return nil
}

// cancelledPlaceLinks are placeLinks for a cancellation's e-mail: the map
// of the address, never a button into a video call that no longer happens
// (the 'Atendimento online' row still says which link it was).
func (b booked) cancelledPlaceLinks() []mail.Link {
	if b.Place.Online {
		return nil
	}
	return b.placeLinks()
}

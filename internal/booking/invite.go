package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/tz"
)

// clientInvite is the client's calendar event for an appointment. The
// confirmation e-mail attaches it and the confirmation card downloads it
// (ClientInvite), from this one writer, so a calendar that gets both keeps
// one event (the same UID) at its latest revision (SEQUENCE). It says the
// service, the professional and the practice: nothing about the client.
func clientInvite(id string, start time.Time, duration int, service, professional, owner, location string, sequence int, stamp time.Time) Invite {
	return Invite{
		UID: id + "@agendei", Start: start, Duration: time.Duration(duration) * time.Minute,
		Summary: fmt.Sprintf("%s com %s", service, professional), Description: "Agendado pelo Agendei com " + owner + ".", Location: location,
		Stamp: stamp, Sequence: sequence,
	}
}

// addressed is inv from the practice (ORGANIZER: its name and e-mail,
// mail.PracticeEmail) to the client (ATTENDEE, "" for none), as RFC 5546
// asks of the REQUEST and the CANCEL an e-mail carries.
func addressed(ctx context.Context, q db.Querier, inv Invite, ownerID, ownerName, clientName, clientEmail string) (Invite, error) {
	email, err := mail.PracticeEmail(ctx, q, ownerID)
	if err != nil {
		return inv, err
	}
	inv.Organizer, inv.OrganizerEmail = ownerName, email
	inv.Attendee, inv.AttendeeEmail = clientName, strings.TrimSpace(clientEmail)
	return inv, nil
}

// ClientInvite is the .ics of the appointment behind a client's private
// token, as it stands now: its time in the owner's zone and its current
// SEQUENCE (a move raises it, and the calendar replaces the event); a
// cancelled appointment gives the cancellation (METHOD:CANCEL), which takes
// the event out. An unknown token is the cancel link's 404.
func (s *Service) ClientInvite(ctx context.Context, token string) ([]byte, error) {
	id, err := s.tokenAppointment(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	var service, professional, owner, ownerID, zone, status, clientEmail string
	var starts time.Time
	var duration, sequence int
	err = s.DB.QueryRowContext(ctx, `SELECT a.starts_at, a.duration, a.service_name, a.professional_name, p.name, p.id, p.time_zone, a.status, a.sequence, a.client_email
		FROM appointments a JOIN profiles p ON p.id = a.user_id WHERE a.id = ?`, id).Scan(
		&starts, &duration, &service, &professional, &owner, &ownerID, &zone, &status, &sequence, &clientEmail)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errLink
	}
	if err != nil {
		return nil, err
	}
	where, err := placeOf(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	inv := clientInvite(id, starts.In(tz.Load(zone)), duration, service, professional, owner, where.Text(), sequence, s.Clock.Now())
	inv.Cancelled = status == "cancelled"
	// A file to import (PUBLISH) names only the practice; a cancellation
	// (CANCEL) also its attendee, by address alone (RFC 5546 §3.2.5).
	attendee := ""
	if inv.Cancelled {
		attendee = clientEmail
	}
	if inv, err = addressed(ctx, s.DB, inv, ownerID, owner, "", attendee); err != nil {
		return nil, err
	}
	return ICS(inv), nil
}

// invite serves GET /api/public/bookings/{token}/invite.ics: the
// confirmation card's 'Baixar convite (.ics)', a download of the same file
// the e-mail attaches.
func (h *Handlers) invite(w http.ResponseWriter, r *http.Request) error {
	ics, err := h.Svc.ClientInvite(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="agendamento.ics"`)
	// The token in the address is a credential: no cache keeps the answer.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	_, _ = w.Write(ics)
	return nil
}

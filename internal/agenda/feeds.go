package agenda

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/profiles"
)

// Feed is a private calendar address an owner subscribes to in Google,
// Apple or Outlook calendars: the whole practice (ProfessionalID nil) or
// one professional.
type Feed struct {
	ID               string    `json:"id"`
	ProfessionalID   *string   `json:"professionalId"`
	ProfessionalName string    `json:"professionalName"`
	CreatedAt        time.Time `json:"createdAt"`
	// IncludePhone puts the client's phone in the events: the owner's choice
	// for this feed, off unless ticked, because the calendar provider reads it.
	IncludePhone bool `json:"includePhone"`
	// URL is the address, only in the answer that created it: the server
	// keeps its hash alone, so it cannot be shown again (a new one can).
	URL string `json:"url,omitempty"`
}

// A feed carries the appointments that hold time from FeedPast days ago
// to FeedAhead days ahead (at most FeedMax).
const (
	FeedPast  = 30
	FeedAhead = 90
	FeedMax   = 5000
)

var (
	errFeedNotFound     = httpx.NewError(http.StatusNotFound, "not_found", "Calendário não encontrado.")
	errFeedProfessional = httpx.Validation("Profissional inválido.")
	errFeedPhone        = httpx.Validation("Informe se o telefone do cliente entra no calendário.")
)

// Feeds lists the owner's calendar feeds, the practice's first.
func (s *Service) Feeds(ctx context.Context, userID string) ([]Feed, error) {
	out := []Feed{}
	err := db.Each(ctx, s.DB, `SELECT `+feedColumns+` FROM calendar_feeds f
		LEFT JOIN professionals p ON p.id = f.professional_id WHERE f.user_id = ? ORDER BY f.professional_id IS NOT NULL, p.name`, []any{userID}, func(r *sql.Rows) error {
		f, err := scanFeed(r)
		if err == nil {
			out = append(out, *f)
		}
		return err
	})
	return out, err
}

const feedColumns = `f.id, f.professional_id, COALESCE(p.name, ''), f.created_at, f.include_phone`

func scanFeed(row interface{ Scan(...any) error }) (*Feed, error) {
	var f Feed
	var pro sql.NullString
	if err := row.Scan(&f.ID, &pro, &f.ProfessionalName, &f.CreatedAt, &f.IncludePhone); err != nil {
		return nil, err
	}
	if pro.Valid {
		f.ProfessionalID = &pro.String
	}
	f.CreatedAt = f.CreatedAt.UTC()
	return &f, nil
}

// NewFeed makes the calendar address of the practice (professionalID "")
// or a professional, replacing the one it had: the old address stops
// working at once. includePhone is the feed's choice of the client's phone.
func (s *Service) NewFeed(ctx context.Context, userID, professionalID, baseURL string, includePhone bool) (*Feed, error) {
	token, hash := auth.OpaqueToken()
	f := Feed{ID: uuid.NewString(), CreatedAt: s.Clock.Now().UTC(), IncludePhone: includePhone}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var pro any
		if professionalID != "" {
			err := tx.QueryRowContext(ctx, `SELECT name FROM professionals WHERE id = ? AND user_id = ?`, professionalID, userID).Scan(&f.ProfessionalName)
			if errors.Is(err, sql.ErrNoRows) {
				return errFeedProfessional
			}
			if err != nil {
				return err
			}
			pro, f.ProfessionalID = professionalID, &professionalID
		}
		// One statement replaces the scope's row or makes it: two presses
		// at once (on any instance) fall in some order, each answered with
		// its own address, the last one standing. A delete then an insert
		// would let both see no row and the second insert hit the scope's
		// unique index.
		_, err := tx.ExecContext(ctx, `INSERT INTO calendar_feeds (id, user_id, professional_id, token_hash, created_at, include_phone) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, COALESCE(professional_id, '')) DO UPDATE SET id = excluded.id, token_hash = excluded.token_hash,
				created_at = excluded.created_at, include_phone = excluded.include_phone`,
			f.ID, userID, pro, hash, s.Clock.Now(), includePhone)
		return err
	})
	if err != nil {
		return nil, err
	}
	f.URL = strings.TrimRight(baseURL, "/") + "/calendar/" + token + ".ics"
	return &f, nil
}

// SetFeedPhone changes whether a feed carries the client's phone, keeping
// its address (the owner's calendar app stays subscribed).
func (s *Service) SetFeedPhone(ctx context.Context, userID, id string, include bool) (*Feed, error) {
	if err := db.ExecOwned(ctx, s.DB, errFeedNotFound, `UPDATE calendar_feeds SET include_phone = ? WHERE id = ? AND user_id = ?`, include, id, userID); err != nil {
		return nil, err
	}
	f, err := scanFeed(s.DB.QueryRowContext(ctx, `SELECT `+feedColumns+` FROM calendar_feeds f
		LEFT JOIN professionals p ON p.id = f.professional_id WHERE f.id = ? AND f.user_id = ?`, id, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errFeedNotFound // revoked or replaced in between
	}
	return f, err
}

// DeleteFeed revokes a calendar address.
func (s *Service) DeleteFeed(ctx context.Context, userID, id string) error {
	return db.ExecOwned(ctx, s.DB, errFeedNotFound, `DELETE FROM calendar_feeds WHERE id = ? AND user_id = ?`, id, userID)
}

// FeedCalendar is the iCalendar file behind a feed's token: every
// appointment that holds time (confirmed, completed, no-show) from FeedPast
// days ago to FeedAhead days ahead, in the owner's zone. A calendar provider
// stores what it reads, so an event says only the client's name, the service
// and the professional, and the client's phone when the owner ticked it for
// this feed; its LOCATION is the appointment's place (place.Of: the
// practice's address, or an online service's video-call link), as in the
// client's invite. The notes never leave the agenda (they may be health data,
// sensitive under LGPD art. 11), nor do the clients' e-mail addresses.
func (s *Service) FeedCalendar(ctx context.Context, token string) ([]byte, error) {
	var userID, owner, room string
	var pro sql.NullString
	var withPhone bool
	// The practice's address and room are read here, once per feed: each
	// event's place is then place.Of them and its service's online link.
	var addr place.Address
	err := s.DB.QueryRowContext(ctx, `SELECT f.user_id, f.professional_id, pr.name, f.include_phone, pr.room_link, `+place.Columns+`
		FROM calendar_feeds f JOIN profiles pr ON pr.id = f.user_id WHERE f.token_hash = ?`,
		auth.HashToken(token)).Scan(append([]any{&userID, &pro, &owner, &withPhone, &room}, addr.Dest()...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errFeedNotFound
	}
	if err != nil {
		return nil, err
	}
	loc, err := profiles.Zone(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now().In(loc)
	from, to := now.AddDate(0, 0, -FeedPast).Format("2006-01-02"), now.AddDate(0, 0, FeedAhead).Format("2006-01-02")
	// A deleted service (no row) leaves the address, as place.Where does.
	q := `SELECT a.id, a.starts_at, a.duration, a.service_name, a.professional_name, a.client_name, a.client_phone, a.status, a.sequence, a.updated_at,
		COALESCE(sv.online, FALSE), COALESCE(sv.online_link, '')
		FROM appointments a LEFT JOIN services sv ON sv.id = a.service_id AND sv.user_id = a.user_id
		WHERE a.user_id = ? AND a.appointment_date >= ? AND a.appointment_date <= ? AND a.status IN ('confirmed', 'awaiting_deposit', 'completed', 'no_show')`
	args := []any{userID, from, to}
	name := "Agendei — " + owner
	if pro.Valid {
		q += ` AND a.professional_id = ?`
		args = append(args, pro.String)
	}
	q += fmt.Sprintf(` ORDER BY a.appointment_date, a.appointment_time LIMIT %d`, FeedMax)
	var events []booking.Invite
	var proName string
	err = db.Each(ctx, s.DB, q, args, func(r *sql.Rows) error {
		var id, service, professional, client, phone, status string
		var starts, updated time.Time
		var duration, sequence int
		var online bool
		var link string
		if err := r.Scan(&id, &starts, &duration, &service, &professional, &client, &phone, &status, &sequence, &updated, &online, &link); err != nil {
			return err
		}
		proName = professional
		summary := service + " — " + client
		lines := []string{"Cliente: " + client}
		if withPhone && phone != "" {
			lines = append(lines, "Telefone: "+phone)
		}
		lines = append(lines, "Profissional: "+professional)
		switch status {
		case "no_show":
			summary += " (não compareceu)"
		case booking.StatusAwaitingDeposit:
			summary += " (aguardando sinal)" // its time is held, not yet confirmed
		}
		events = append(events, booking.Invite{UID: id + "@agendei", Start: starts.In(loc), Duration: time.Duration(duration) * time.Minute,
			Summary: summary, Description: strings.Join(lines, "\n"), Location: place.Of(addr, online, link, room).Text(), Stamp: updated, Sequence: sequence})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if pro.Valid && proName != "" {
		name += " (" + proName + ")"
	}
	return booking.Calendar(loc, "PUBLISH", name, events), nil
}

func (h *Handlers) listFeeds(w http.ResponseWriter, r *http.Request) error {
	list, err := h.Svc.Feeds(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, map[string]any{"feeds": list}, err)
}

func (h *Handlers) newFeed(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ProfessionalID *string `json:"professionalId"`
		IncludePhone   bool    `json:"includePhone"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	pro := ""
	if in.ProfessionalID != nil {
		pro = *in.ProfessionalID
	}
	f, err := h.Svc.NewFeed(r.Context(), auth.UserID(r.Context()), pro, h.BaseURL, in.IncludePhone)
	return httpx.Respond(w, http.StatusCreated, f, err)
}

func (h *Handlers) setFeedPhone(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		IncludePhone *bool `json:"includePhone"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.IncludePhone == nil {
		return errFeedPhone
	}
	f, err := h.Svc.SetFeedPhone(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), *in.IncludePhone)
	return httpx.Respond(w, http.StatusOK, f, err)
}

func (h *Handlers) deleteFeed(w http.ResponseWriter, r *http.Request) error {
	if err := h.Svc.DeleteFeed(r.Context(), auth.UserID(r.Context()), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// feed serves GET /calendar/{file}: "<token>.ics", read by calendar apps
// without a session (the token is the credential). An unknown or revoked
// token is 404.
func (h *Handlers) feed(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
	if !ok || token == "" {
		http.NotFound(w, r)
		return
	}
	ics, err := h.Svc.FeedCalendar(r.Context(), token)
	if errors.Is(err, errFeedNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		httpx.Logger(r.Context()).Error("calendar feed", "err", err)
		http.Error(w, "Calendário indisponível no momento.", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="agendei.ics"`)
	w.Header().Set("Cache-Control", "private, max-age=300")
	w.Header().Set("X-Robots-Tag", "noindex")
	_, _ = w.Write(ics)
}

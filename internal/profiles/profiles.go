package profiles

import (
	"context"
	"database/sql"
	"errors"
	"github.com/agendei/agendei/internal/deposits"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/platform/tz"
)

// Profile is the owner's profile as the owner sees it.
type Profile struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	Email          string  `json:"email"`
	PublicUsername *string `json:"publicUsername"`
	Area           string  `json:"area"`
	Description    string  `json:"description"`
	Phone          string  `json:"phone"`
	Website        string  `json:"website"`
	Instagram      string  `json:"instagram"`
	LinkedIn       string  `json:"linkedin"`
	WhatsApp       string  `json:"whatsapp"`
	ContactEmail   string  `json:"contactEmail"` // shown on the public page; "" shows none
	// Address is the practice's (shown on the public page and in every
	// message of an appointment not held online); RoomLink the owner's
	// fixed video-call room, the place of an online service without its own.
	Address     place.Address `json:"address"`
	AddressLine string        `json:"addressLine"` // Address on one line, as the messages say it ("" when unset)
	RoomLink    string        `json:"roomLink"`
	PhotoURL    string        `json:"photoUrl"`
	TimeZone    string        `json:"timeZone"`
	TrialEndsAt *time.Time    `json:"trialEndsAt"`
	CreatedAt   time.Time     `json:"createdAt"`
}

// Input is what the profile form sends.
type Input struct {
	Name           string `json:"name"`
	Email          string `json:"email"`
	PublicUsername string `json:"publicUsername"`
	Area           string `json:"area"`
	Description    string `json:"description"`
	Phone          string `json:"phone"`
	Website        string `json:"website"`
	Instagram      string `json:"instagram"`
	LinkedIn       string `json:"linkedin"`
	WhatsApp       string `json:"whatsapp"`
	ContactEmail   string `json:"contactEmail"`
	TimeZone       string `json:"timeZone"`
	// Address and RoomLink are replaced with what is sent: left out, they
	// are cleared (the form always sends them).
	Address  place.Address `json:"address"`
	RoomLink string        `json:"roomLink"`
}

var (
	errRequired      = httpx.Validation("Preencha todos os campos obrigatórios.")
	errUsernameTaken = httpx.NewError(http.StatusConflict, "username_taken", "Este nome de usuário já está sendo usado. Escolha outro.")
	errTimeZone      = httpx.Validation("Escolha um fuso horário do Brasil.")
	errTooLong       = httpx.Validation("Um dos campos passou do tamanho máximo permitido.")
	errContactEmail  = httpx.Validation("Informe um e-mail de contato válido ou deixe o campo em branco.")
)

// Service reads and changes profiles.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
	// Deposits is how the owner's deposits are charged (nil:
	// deposits.Static): the public page states a service's deposit only
	// when a booking would ask for it (booking.Service.Deposits, the same).
	Deposits deposits.Chargers
	// Rezone is called, in the transaction that saves it, when the owner's
	// zone changes: the appointments keep their local date and time and
	// whatever hangs on their instants follows (booking.Service.Rezone).
	Rezone func(ctx context.Context, tx *db.Tx, ownerID string, loc *time.Location) error
	// Replan is called, in the transaction that saves them, when the
	// owner's reminders change, so that the reminders queued for their
	// future appointments follow (booking.Service.Replan).
	Replan func(ctx context.Context, tx *db.Tx, ownerID string) error
	// DefaultReminderLead is the reminder lead of an owner who never chose
	// (the server's AGENDEI_REMINDER_LEAD; 0: 24 h).
	DefaultReminderLead time.Duration
}

const columns = `id, name, email, public_username, area, description, phone, website, instagram, linkedin, whatsapp, contact_email, photo_url, time_zone, trial_ends_at, created_at, ` +
	place.Columns + `, room_link`

func scan(row interface{ Scan(...any) error }) (*Profile, error) {
	var p Profile
	var username sql.NullString
	var trial sql.NullTime
	err := row.Scan(append([]any{&p.ID, &p.Name, &p.Email, &username, &p.Area, &p.Description, &p.Phone, &p.Website, &p.Instagram,
		&p.LinkedIn, &p.WhatsApp, &p.ContactEmail, &p.PhotoURL, &p.TimeZone, &trial, &p.CreatedAt}, append(p.Address.Dest(), &p.RoomLink)...)...)
	if err != nil {
		return nil, err
	}
	if username.Valid {
		p.PublicUsername = &username.String
	}
	if trial.Valid {
		t := trial.Time.UTC()
		p.TrialEndsAt = &t
	}
	p.CreatedAt = p.CreatedAt.UTC()
	p.AddressLine = p.Address.Line()
	return &p, nil
}

// Get returns the owner's profile.
func (s *Service) Get(ctx context.Context, userID string) (*Profile, error) {
	p, err := scan(s.DB.QueryRowContext(ctx, `SELECT `+columns+` FROM profiles WHERE id = ?`, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpx.ErrNotFound
	}
	return p, err
}

// Validate normalises the form and checks it.
func Validate(in *Input) error {
	for _, f := range []*string{&in.Name, &in.Email, &in.Area, &in.Description, &in.Phone, &in.Website, &in.Instagram, &in.LinkedIn, &in.WhatsApp, &in.ContactEmail, &in.TimeZone} {
		*f = strings.TrimSpace(*f)
	}
	in.Name = brfmt.OneLine(in.Name) // it goes into every WhatsApp message's parameters
	in.PublicUsername = NormalizeUsername(in.PublicUsername)
	if in.Name == "" || in.Email == "" || in.Area == "" {
		return errRequired
	}
	email, err := auth.NormalizeEmail(in.Email)
	if err != nil {
		return err
	}
	in.Email = email
	// The public page shows only this one, and only when the owner fills it:
	// never the account's e-mail above.
	if in.ContactEmail != "" {
		if in.ContactEmail, err = auth.NormalizeEmail(in.ContactEmail); err != nil {
			return errContactEmail
		}
	}
	if in.PublicUsername != "" {
		if p := UsernameProblem(in.PublicUsername); p != "" {
			return httpx.Validation(p)
		}
	}
	if in.TimeZone == "" {
		in.TimeZone = tz.Default
	}
	if !ValidTimeZone(in.TimeZone) {
		return errTimeZone
	}
	for _, f := range []string{in.Name, in.Area, in.Phone, in.Website, in.Instagram, in.LinkedIn, in.WhatsApp} {
		if utf8.RuneCountInString(f) > 200 {
			return errTooLong
		}
	}
	if utf8.RuneCountInString(in.Description) > 2000 {
		return errTooLong
	}
	if err := in.Address.Normalize(); err != nil {
		return err
	}
	if in.RoomLink, err = place.Link(in.RoomLink); err != nil {
		return err
	}
	in.Instagram = FormatInstagram(in.Instagram)
	in.LinkedIn = FormatLinkedIn(in.LinkedIn)
	if in.WhatsApp != "" {
		// Refused rather than stored blank: the owner would lose the number
		// without knowing.
		if in.WhatsApp = FormatWhatsApp(in.WhatsApp); in.WhatsApp == "" {
			return errWhatsApp
		}
	}
	return nil
}

// Update saves the profile form. A username someone else holds (in any case
// or spacing) is refused; the unique index settles races.
func (s *Service) Update(ctx context.Context, userID string, in Input) (*Profile, error) {
	if err := Validate(&in); err != nil {
		return nil, err
	}
	var username any
	if in.PublicUsername != "" {
		username = in.PublicUsername
	}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		// The row is locked before the zone is compared, so two saves at
		// once cannot both find the zone unchanged and leave the
		// appointments' instants in the zone that lost.
		var zone string
		err := tx.QueryRowContext(ctx, `SELECT time_zone FROM profiles WHERE id = ?`+tx.LockRow(), userID).Scan(&zone)
		if errors.Is(err, sql.ErrNoRows) {
			return httpx.ErrNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET name = ?, email = ?, public_username = ?, area = ?, description = ?, phone = ?,
			website = ?, instagram = ?, linkedin = ?, whatsapp = ?, contact_email = ?, time_zone = ?,
			address_street = ?, address_number = ?, address_complement = ?, address_district = ?, address_city = ?, address_state = ?, address_cep = ?,
			room_link = ?, updated_at = ? WHERE id = ?`,
			in.Name, in.Email, username, in.Area, in.Description, in.Phone, in.Website, in.Instagram, in.LinkedIn, in.WhatsApp,
			in.ContactEmail, in.TimeZone, in.Address.Street, in.Address.Number, in.Address.Complement, in.Address.District,
			in.Address.City, in.Address.State, in.Address.CEP, in.RoomLink, s.Clock.Now(), userID); err != nil {
			return err
		}
		if zone == in.TimeZone || s.Rezone == nil {
			return nil
		}
		return s.Rezone(ctx, tx, userID, tz.Load(in.TimeZone))
	})
	if db.IsUniqueViolation(err) {
		return nil, errUsernameTaken
	}
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, userID)
}

// UsernameAvailable reports whether a username is free for this owner.
func (s *Service) UsernameAvailable(ctx context.Context, userID, raw string) (bool, string, error) {
	u := NormalizeUsername(raw)
	if p := UsernameProblem(u); p != "" {
		return false, p, nil
	}
	var n int
	err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles WHERE public_username = ? AND id <> ?`, u, userID).Scan(&n)
	if err != nil {
		return false, "", err
	}
	if n > 0 {
		return false, errUsernameTaken.Message, nil
	}
	return true, "", nil
}

// Setup is the dashboard's view of how far the owner got (SPEC §4).
type Setup struct {
	Complete bool       `json:"complete"`
	Items    SetupItems `json:"items"`
	Trial    TrialState `json:"trial"`
	Username *string    `json:"publicUsername"`
}

// SetupItems are the four checklist items.
type SetupItems struct {
	Profile      bool `json:"profile"`
	Professional bool `json:"professional"`
	Service      bool `json:"service"`
	Availability bool `json:"availability"`
}

// Setup computes completeness and the trial. A profile whose basic info is
// filled but whose trial never started gets its trial end now (SPEC §4).
func (s *Service) Setup(ctx context.Context, userID string) (*Setup, error) {
	p, err := s.Get(ctx, userID)
	if err != nil {
		return nil, err
	}
	var out Setup
	out.Username = p.PublicUsername
	out.Items.Profile = strings.TrimSpace(p.Name) != "" && strings.TrimSpace(p.Area) != "" && p.PublicUsername != nil
	err = s.DB.QueryRowContext(ctx, `SELECT
		EXISTS (SELECT 1 FROM professionals WHERE user_id = ? AND active = TRUE),
		EXISTS (SELECT 1 FROM services WHERE user_id = ? AND active = TRUE),
		EXISTS (SELECT 1 FROM availability WHERE user_id = ?)`, userID, userID, userID).
		Scan(&out.Items.Professional, &out.Items.Service, &out.Items.Availability)
	if err != nil {
		return nil, err
	}
	out.Complete = out.Items.Profile && out.Items.Professional && out.Items.Service && out.Items.Availability
	if out.Items.Profile && p.TrialEndsAt == nil {
		end := s.Clock.Now().Add(TrialLength)
		if err := s.DB.OwnerExec(ctx, userID, nil, `UPDATE profiles SET trial_ends_at = ? WHERE id = ? AND trial_ends_at IS NULL`, end, userID); err != nil {
			return nil, err
		}
		if p, err = s.Get(ctx, userID); err != nil {
			return nil, err
		}
	}
	out.Trial = Trial(p.TrialEndsAt, s.Clock.Now())
	return &out, nil
}

// Handlers serves the owner's profile endpoints.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
	Memo *memo.Cache // nil: no cache
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/profile", h.Auth.RequireUser(httpx.Handle(h.get)))
	mux.Handle("PUT /api/profile", h.Auth.RequireUser(httpx.Handle(h.update)))
	mux.Handle("GET /api/profile/username-availability", h.Auth.RequireUser(httpx.Handle(h.usernameAvailability)))
	mux.Handle("GET /api/setup-status", h.Auth.RequireUser(httpx.Handle(h.setup)))
	mux.Handle("GET /api/message-templates", h.Auth.RequireUser(httpx.Handle(h.messages)))
	mux.Handle("PUT /api/message-templates", h.Auth.RequireUser(httpx.Handle(h.saveMessages)))
	mux.Handle("GET /api/profile/reminders", h.Auth.RequireUser(httpx.Handle(h.reminders)))
	mux.Handle("PUT /api/profile/reminders", h.Auth.RequireUser(httpx.Handle(h.saveReminders)))
	mux.Handle("GET /api/profile/public-page", h.Auth.RequireUser(httpx.Handle(h.publicPage)))
	mux.Handle("PUT /api/profile/public-page", h.Auth.RequireUser(httpx.Handle(h.savePublicPage)))
	mux.Handle("GET /api/public/profiles/{username}", h.Memo.Public("profile", NormalizeUsername, httpx.Handle(h.public)))
}

func (h *Handlers) get(w http.ResponseWriter, r *http.Request) error {
	p, err := h.Svc.Get(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, p, err)
}

func (h *Handlers) update(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := h.Svc.Update(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, p, err)
}

func (h *Handlers) usernameAvailability(w http.ResponseWriter, r *http.Request) error {
	ok, reason, err := h.Svc.UsernameAvailable(r.Context(), auth.UserID(r.Context()), r.URL.Query().Get("username"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"available": ok, "message": reason})
	return nil
}

func (h *Handlers) setup(w http.ResponseWriter, r *http.Request) error {
	s, err := h.Svc.Setup(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, s, err)
}

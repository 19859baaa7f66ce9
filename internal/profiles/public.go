package profiles

import (
	"context"
	"database/sql"
	"errors"
	"github.com/agendei/agendei/internal/deposits"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/services"
	"github.com/agendei/agendei/internal/team"
)

// Public is what anonymous visitors may see of a profile: its public fields,
// active services and active professionals. Never trial, account or other
// owners' data, and never the account's e-mail: only the contact e-mail the
// owner chose to show (empty by default).
type Public struct {
	Username     string `json:"username"`
	Name         string `json:"name"`
	Area         string `json:"area"`
	Description  string `json:"description"`
	PhotoURL     string `json:"photoUrl"`
	ContactEmail string `json:"contactEmail"`
	Phone        string `json:"phone"`
	Website      string `json:"website"`
	Instagram    string `json:"instagram"`
	LinkedIn     string `json:"linkedin"`
	WhatsApp     string `json:"whatsapp"`
	// Address is the practice's address on one line ("" when unset), and
	// MapsURL its Google Maps search: where the services not held online
	// happen.
	Address     string `json:"address"`
	MapsURL     string `json:"mapsUrl"`
	BookingOpen bool   `json:"bookingOpen"`
	// HidePrices: the owner hides prices on the public page (issue 43 §3,
	// the councils forbid price as advertising): no service carries its
	// price, and the pages say "Valor informado no atendimento".
	HidePrices bool `json:"hidePrices"`
	// The first and last dates the public pages offer: the owner's today and
	// today plus the booking window.
	FirstBookableDate string               `json:"firstBookableDate"`
	LastBookableDate  string               `json:"lastBookableDate"`
	Services          []PublicService      `json:"services"`
	Professionals     []PublicProfessional `json:"professionals"`
	// AskPayerCPF: the owner issues the Receita Saúde's receipts (issue 43
	// §4), so the booking form asks the payer's CPF, with its reason.
	AskPayerCPF bool `json:"askPayerCpf"`
}

// PublicService is an active service as visitors see it.
type PublicService struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Duration    int     `json:"duration"`
	// PriceCents is left out of the answer when the owner hides prices.
	PriceCents      *int64   `json:"priceCents,omitempty"`
	ProfessionalIDs []string `json:"professionalIds"`
	// Online: held by video call, not at the address. The link itself is
	// given to who books (the confirmation card, e-mail and invite), not
	// to every visitor of the page: a fixed room is the owner's door.
	Online bool `json:"online"`
	// Deposit is the deposit a booking of it asks for, stated before the
	// client books; nil when none (no policy, or the owner cannot take one).
	Deposit *PublicDeposit `json:"deposit"`
}

// PublicDeposit is a service's deposit as the public page states it.
type PublicDeposit struct {
	AmountCents int64  `json:"amountCents"`
	HoldMinutes int    `json:"holdMinutes"`
	Text        string `json:"text"` // "Sinal de R$ 30,00 via Pix para confirmar. …"
}

// PublicProfessional is an active professional as visitors see them.
type PublicProfessional struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	Specialization string `json:"specialization"`
	PhotoURL       string `json:"photoUrl"`
	// CouncilLabel is the council registration on one line ("CRP
	// 06/12345", team.CouncilLabel), empty when none; Headline is how the
	// pages name them after their full name: "Psicóloga — CRP 06/12345"
	// (the specialization alone without a council). The CFP's code (art.
	// 20) asks full name and CRP in any publicity; the page prints what
	// the server computed rather than carry the rule in its bundle.
	CouncilLabel string `json:"councilLabel"`
	Headline     string `json:"headline"`
}

// Headline is a professional's specialization and council registration
// as the public page prints them: "Psicóloga — CRP 06/12345".
func Headline(specialization, council, uf, number string) string {
	label := team.CouncilLabel(council, uf, number)
	switch {
	case label == "":
		return specialization
	case specialization == "":
		return label
	}
	return specialization + " — " + label
}

var errProfileNotFound = httpx.NewError(http.StatusNotFound, "profile_not_found", "Perfil não encontrado")

// PublicByUsername returns the public view of the profile at a username.
func (s *Service) PublicByUsername(ctx context.Context, raw string) (*Public, error) {
	username := NormalizeUsername(raw)
	if username == "" {
		return nil, errProfileNotFound
	}
	var p Public
	var userID string
	var trialEnd sql.NullTime
	var zone string
	var window, cutoff int
	var addr place.Address
	err := s.DB.QueryRowContext(ctx, `SELECT id, public_username, name, area, description, photo_url, contact_email, phone, website, instagram, linkedin, whatsapp, trial_ends_at,
		time_zone, booking_window_days, cancel_cutoff_hours, hide_prices, `+place.Columns+`
		FROM profiles WHERE public_username = ?`, username).Scan(append([]any{&userID, &p.Username, &p.Name, &p.Area, &p.Description, &p.PhotoURL,
		&p.ContactEmail, &p.Phone, &p.Website, &p.Instagram, &p.LinkedIn, &p.WhatsApp, &trialEnd, &zone, &window, &cutoff, &p.HidePrices}, addr.Dest()...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errProfileNotFound
	}
	if err != nil {
		return nil, err
	}
	if p.BookingOpen, err = Open(ctx, s.DB, userID, nullable(trialEnd), s.Clock.Now()); err != nil {
		return nil, err
	}
	if err := s.DB.QueryRowContext(ctx, `SELECT receipts_enabled FROM profiles WHERE id = ?`, userID).Scan(&p.AskPayerCPF); err != nil {
		return nil, err
	}
	p.Address = addr.Line()
	p.MapsURL = place.MapsURL(p.Address)
	now, loc := s.Clock.Now(), tz.Load(zone)
	p.FirstBookableDate, p.LastBookableDate = now.In(loc).Format("2006-01-02"), schedule.LastDay(now, loc, window)
	p.Services, p.Professionals = []PublicService{}, []PublicProfessional{}
	chargers := s.Deposits
	if chargers == nil {
		chargers = deposits.Static{}
	}
	charger, err := chargers.For(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT id, name, description, duration, price_cents, online,
		deposit_kind, deposit_value, deposit_hold_minutes, deposit_keep_late, deposit_keep_no_show FROM services WHERE user_id = ? AND active = TRUE ORDER BY name, id`, userID)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	for rows.Next() {
		var sv PublicService
		var desc sql.NullString
		var dp deposits.Policy
		var price int64
		if err := rows.Scan(&sv.ID, &sv.Name, &desc, &sv.Duration, &price, &sv.Online,
			&dp.Kind, &dp.Value, &dp.HoldMinutes, &dp.KeepOnLateCancel, &dp.KeepOnNoShow); err != nil {
			rows.Close()
			return nil, err
		}
		if desc.Valid {
			sv.Description = &desc.String
		}
		if !p.HidePrices {
			sv.PriceCents = &price
		}
		// A deposit is a charge the client pays to book, so it is stated
		// even when prices are hidden (never the price it is a part of).
		if amount := dp.Amount(price); amount > 0 && charger != nil {
			sv.Deposit = &PublicDeposit{AmountCents: amount, HoldMinutes: dp.HoldMinutes, Text: dp.Text(price, cutoff)}
		}
		sv.ProfessionalIDs = []string{}
		index[sv.ID] = len(p.Services)
		p.Services = append(p.Services, sv)
	}
	rows.Close()
	rows, err = s.DB.QueryContext(ctx, `SELECT id, name, specialization, photo_url, council, council_uf, council_number FROM professionals WHERE user_id = ? AND active = TRUE ORDER BY name, id`, userID)
	if err != nil {
		return nil, err
	}
	active := map[string]bool{}
	for rows.Next() {
		var pr PublicProfessional
		var council, uf, number string
		if err := rows.Scan(&pr.ID, &pr.Name, &pr.Specialization, &pr.PhotoURL, &council, &uf, &number); err != nil {
			rows.Close()
			return nil, err
		}
		pr.CouncilLabel, pr.Headline = team.CouncilLabel(council, uf, number), Headline(pr.Specialization, council, uf, number)
		active[pr.ID] = true
		p.Professionals = append(p.Professionals, pr)
	}
	rows.Close()
	err = services.Links(ctx, s.DB, userID, func(sid, pid string) {
		if i, ok := index[sid]; ok && active[pid] {
			p.Services[i].ProfessionalIDs = append(p.Services[i].ProfessionalIDs, pid)
		}
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

func (h *Handlers) public(w http.ResponseWriter, r *http.Request) error {
	p, err := h.Svc.PublicByUsername(r.Context(), r.PathValue("username"))
	return httpx.Respond(w, http.StatusOK, p, err)
}

func nullable(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	return &t.Time
}

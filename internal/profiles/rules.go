// Package profiles is the owner's profile: basic and contact data, the public
// username, time zone, photo, setup completeness and the trial — and the
// public view of a profile that anonymous visitors see.
package profiles

import (
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// FormatInstagram turns a handle into a profile URL (SPEC §5): values that
// are already links stay; a leading @ is dropped.
func FormatInstagram(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || strings.HasPrefix(strings.ToLower(v), "http") {
		return v
	}
	return "https://instagram.com/" + strings.TrimLeft(v, "@")
}

// FormatLinkedIn turns a profile id into a LinkedIn URL unless it is a link.
func FormatLinkedIn(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || strings.HasPrefix(strings.ToLower(v), "http") {
		return v
	}
	return "https://linkedin.com/in/" + strings.TrimLeft(v, "@/")
}

// FormatWhatsApp stores the owner's WhatsApp as +55 and the phone's digits,
// by the one phone rule (brfmt.WhatsAppNumber): "(55) 99999-1234" is a
// number of area code 55, "+5555999991234". "" when it is not a phone.
func FormatWhatsApp(v string) string {
	n := brfmt.WhatsAppNumber(v)
	if n == "" {
		return ""
	}
	return "+" + n
}

var errWhatsApp = httpx.Validation("WhatsApp inválido. Use DDD + número, como (11) 98888-7777.")

var usernameRE = regexp.MustCompile(`^[a-z0-9._-]{3,30}$`)

// reserved usernames would shadow our own routes or mislead visitors.
var reserved = map[string]bool{
	"api": true, "admin": true, "agende": true, "login": true, "signup": true, "logout": true, "dashboard": true,
	"profile": true, "services": true, "booking": true, "preview": true, "support": true, "suporte": true,
	"terms": true, "policy": true, "reviews": true, "agenda": true, "clients": true, "reports": true,
	"subscribe": true, "notifications": true, "onboarding": true, "professionals": true, "files": true,
	"assets": true, "static": true, "agendei": true, "root": true, "www": true, "help": true, "ajuda": true,
	"healthz": true, "readyz": true, "metrics": true, "forgot-password": true, "account-success": true,
	"configure-hours": true, "add-service": true, "appointment": true, "subscription-success": true,
}

// NormalizeUsername is how usernames are compared and stored: trimmed and lowercased.
func NormalizeUsername(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// UsernameProblem says what is wrong with a normalised username, or "".
func UsernameProblem(u string) string {
	switch {
	case len(u) < 3:
		return "O nome de usuário deve ter pelo menos 3 caracteres."
	case len(u) > 30:
		return "O nome de usuário deve ter no máximo 30 caracteres."
	case !usernameRE.MatchString(u):
		return "Use apenas letras sem acento, números, ponto (.), sublinhado (_) ou hífen (-) no nome de usuário."
	case reserved[u]:
		return "Este nome de usuário é reservado. Escolha outro."
	}
	return ""
}

// TrialLength is the free trial.
const TrialLength = 7 * 24 * time.Hour

// TrialState is the trial as the dashboard banner shows it (SPEC §4 Trial).
type TrialState struct {
	InTrial       bool       `json:"inTrial"`
	Expired       bool       `json:"expired"`
	DaysRemaining int        `json:"daysRemaining"`
	EndsAt        *time.Time `json:"endsAt"`
}

// Trial computes the trial from its end (nil: not started yet, which counts
// as a full 7 days of temporary access). Days remaining are the ceiling of
// the remaining days, never below 0; the trial is over at its end instant.
func Trial(endsAt *time.Time, now time.Time) TrialState {
	if endsAt == nil {
		return TrialState{InTrial: true, DaysRemaining: 7}
	}
	left := endsAt.Sub(now)
	if left <= 0 {
		return TrialState{Expired: true, EndsAt: endsAt}
	}
	return TrialState{InTrial: true, DaysRemaining: int(math.Ceil(left.Hours() / 24)), EndsAt: endsAt}
}

// BookingOpen reports whether an owner takes online bookings: during the
// trial (or before it started), or while a subscription is paid.
func BookingOpen(trialEnd, paidUntil *time.Time, now time.Time) bool {
	return trialEnd == nil || now.Before(*trialEnd) || Paid(paidUntil, now)
}

// Paid reports whether a paid period (PaidUntil; nil: none) covers now.
func Paid(paidUntil *time.Time, now time.Time) bool {
	return paidUntil != nil && now.Before(*paidUntil)
}

// BrazilTimeZones are the zones offered in the profile (Brazil has four UTC
// offsets, spread over these IANA zones).
var BrazilTimeZones = []string{
	"America/Noronha", "America/Sao_Paulo", "America/Bahia", "America/Fortaleza", "America/Recife",
	"America/Maceio", "America/Belem", "America/Araguaina", "America/Santarem", "America/Manaus",
	"America/Cuiaba", "America/Campo_Grande", "America/Porto_Velho", "America/Boa_Vista",
	"America/Rio_Branco", "America/Eirunepe",
}

// ValidTimeZone reports whether tz is one of BrazilTimeZones.
func ValidTimeZone(tz string) bool {
	for _, z := range BrazilTimeZones {
		if z == tz {
			return true
		}
	}
	return false
}

// Package deposits is issue 29: a deposit ("sinal") asked at booking. A
// service's Policy says how much (nothing, a fixed amount, a percentage of
// the price), how long an unpaid booking holds its time, and what happens
// to a paid deposit on a late cancellation and a no-show. A booking with a
// deposit is written by booking (through booking.Hold, like every booking)
// together with its Deposit row in state pending — the appointment is then
// "aguardando sinal" and holds its time for everyone — and a job expires it
// unpaid at its deadline. How a deposit's charge is produced (the "Pix Copia
// e Cola" text and its QR) is a Charger: the static Pix from the owner's
// key (Static) by default, a payment provider where the owner connected one.
package deposits

import (
	"fmt"
	"net/http"

	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Kinds of policy.
const (
	None    = "none"
	Fixed   = "fixed"   // Value is centavos
	Percent = "percent" // Value is whole percent of the price, 1–100
)

const (
	DefaultHoldMinutes = 30
	MinHoldMinutes     = 10
	MaxHoldMinutes     = 1440
	maxFixed           = 100_000_00 // as a service's price
)

// Policy is a service's deposit rule.
type Policy struct {
	Kind  string `json:"kind"`
	Value int64  `json:"value"`
	// HoldMinutes is how long an unpaid booking holds its time.
	HoldMinutes int `json:"holdMinutes"`
	// KeepOnLateCancel and KeepOnNoShow: the deposit is retained (not
	// returned) when the client cancels past the owner's cutoff, or does not
	// come. A timely cancellation always has it returned.
	KeepOnLateCancel bool `json:"keepOnLateCancel"`
	KeepOnNoShow     bool `json:"keepOnNoShow"`
}

// Default is a service's policy until the owner sets one: no deposit.
func Default() Policy {
	return Policy{Kind: None, HoldMinutes: DefaultHoldMinutes, KeepOnLateCancel: true, KeepOnNoShow: true}
}

var (
	errKind    = httpx.Validation("Escolha como cobrar o sinal: sem sinal, valor fixo ou porcentagem do preço.")
	errFixed   = httpx.Validation("O valor do sinal deve ser maior que zero (até R$ 100.000,00).")
	errPercent = httpx.Validation("A porcentagem do sinal deve ser de 1% a 100% do preço.")
	errNoPrice = httpx.Validation("Para cobrar uma porcentagem como sinal, o serviço precisa ter um preço.")
	errOver    = httpx.Validation("O sinal não pode ser maior que o preço do serviço.")
	errHold    = httpx.Validation(fmt.Sprintf("O prazo para pagar o sinal deve ser de %d a %d minutos (24 horas).", MinHoldMinutes, MaxHoldMinutes))
)

// Validate checks a policy against the service's price (centavos).
func (p *Policy) Validate(priceCents int64) error {
	if p.Kind == "" {
		p.Kind = None
	}
	if p.HoldMinutes == 0 {
		p.HoldMinutes = DefaultHoldMinutes
	}
	switch p.Kind {
	case None:
		p.Value = 0
	case Fixed:
		if p.Value < 1 || p.Value > maxFixed {
			return errFixed
		}
		if priceCents > 0 && p.Value > priceCents {
			return errOver
		}
	case Percent:
		if priceCents <= 0 {
			return errNoPrice
		}
		if p.Value < 1 || p.Value > 100 {
			return errPercent
		}
	default:
		return errKind
	}
	if p.HoldMinutes < MinHoldMinutes || p.HoldMinutes > MaxHoldMinutes {
		return errHold
	}
	return nil
}

// Amount is the deposit in centavos for a price (0: none). A percentage is
// rounded half up to the centavo and is at least one.
func (p Policy) Amount(priceCents int64) int64 {
	switch p.Kind {
	case Fixed:
		return p.Value
	case Percent:
		if priceCents <= 0 {
			return 0
		}
		return max(1, (priceCents*p.Value+50)/100)
	}
	return 0
}

// Text is the policy as the public page states it before the client books,
// e.g. "Sinal de R$ 30,00 via Pix para confirmar. Não reembolsável em caso
// de falta ou cancelamento com menos de 24 h." cutoffHours is the owner's
// cancellation cutoff (0: none). "" when there is no deposit.
func (p Policy) Text(priceCents int64, cutoffHours int) string {
	amount := p.Amount(priceCents)
	if amount == 0 {
		return ""
	}
	s := fmt.Sprintf("Sinal de %s via Pix para confirmar.", brfmt.Money(amount))
	late := p.KeepOnLateCancel && cutoffHours > 0
	switch {
	case p.KeepOnNoShow && late:
		s += fmt.Sprintf(" Não reembolsável em caso de falta ou cancelamento com menos de %d h.", cutoffHours)
	case p.KeepOnNoShow:
		s += " Não reembolsável em caso de falta."
	case late:
		s += fmt.Sprintf(" Não reembolsável em caso de cancelamento com menos de %d h.", cutoffHours)
	}
	return s
}

// ErrNotFound is a deposit the owner does not have.
var ErrNotFound = httpx.NewError(http.StatusNotFound, "not_found", "Sinal não encontrado.")

package deposits_test

import (
	"testing"

	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/platform/httpx"
)

func TestPolicy_ValidateInPortuguese(t *testing.T) {
	ok := []deposits.Policy{
		{Kind: deposits.None},
		{Kind: deposits.Fixed, Value: 3000, HoldMinutes: 10},
		{Kind: deposits.Percent, Value: 100, HoldMinutes: 1440},
		{}, // empty: none, 30 minutes
	}
	for _, p := range ok {
		if err := p.Validate(15000); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
	bad := map[string]struct {
		p     deposits.Policy
		price int64
	}{
		"O valor do sinal deve ser maior que zero (até R$ 100.000,00).":               {deposits.Policy{Kind: deposits.Fixed, Value: 0}, 15000},
		"O sinal não pode ser maior que o preço do serviço.":                          {deposits.Policy{Kind: deposits.Fixed, Value: 15001}, 15000},
		"A porcentagem do sinal deve ser de 1% a 100% do preço.":                      {deposits.Policy{Kind: deposits.Percent, Value: 101}, 15000},
		"Para cobrar uma porcentagem como sinal, o serviço precisa ter um preço.":     {deposits.Policy{Kind: deposits.Percent, Value: 20}, 0},
		"O prazo para pagar o sinal deve ser de 10 a 1440 minutos (24 horas).":        {deposits.Policy{Kind: deposits.Fixed, Value: 100, HoldMinutes: 9}, 15000},
		"Escolha como cobrar o sinal: sem sinal, valor fixo ou porcentagem do preço.": {deposits.Policy{Kind: "card"}, 15000},
	}
	for want, c := range bad {
		err := c.p.Validate(c.price)
		if e, isHTTP := err.(*httpx.Error); !isHTTP || e.Message != want || e.Status != 400 {
			t.Errorf("%+v: %v, want %q", c.p, err, want)
		}
	}
	if p := (deposits.Policy{Kind: deposits.Fixed, Value: 1, HoldMinutes: 1441}); p.Validate(100) == nil {
		t.Error("1441 minutes accepted")
	}
}

func TestPolicy_AmountAndText(t *testing.T) {
	if got := (deposits.Policy{Kind: deposits.Percent, Value: 33}).Amount(10001); got != 3300 { // 3300.33 → 3300
		t.Errorf("33%% of 10001 = %d", got)
	}
	if got := (deposits.Policy{Kind: deposits.Percent, Value: 50}).Amount(1); got != 1 { // 0.5 → 1, never 0
		t.Errorf("50%% of 1 = %d", got)
	}
	p := deposits.Policy{Kind: deposits.Fixed, Value: 3000, KeepOnLateCancel: true, KeepOnNoShow: true}
	for cutoff, want := range map[int]string{
		24: "Sinal de R$ 30,00 via Pix para confirmar. Não reembolsável em caso de falta ou cancelamento com menos de 24 h.",
		0:  "Sinal de R$ 30,00 via Pix para confirmar. Não reembolsável em caso de falta.",
	} {
		if got := p.Text(15000, cutoff); got != want {
			t.Errorf("cutoff %d: %q", cutoff, got)
		}
	}
	p.KeepOnNoShow = false
	if got := p.Text(15000, 12); got != "Sinal de R$ 30,00 via Pix para confirmar. Não reembolsável em caso de cancelamento com menos de 12 h." {
		t.Errorf("late only: %q", got)
	}
	if got := (deposits.Policy{Kind: deposits.None}).Text(15000, 24); got != "" {
		t.Errorf("none: %q", got)
	}
}

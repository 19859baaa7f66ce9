package brfmt

import "testing"

func TestMoneyWords_ReadsAsAReceiptWritesIt(t *testing.T) {
	for cents, want := range map[int64]string{
		0:              "zero real",
		1:              "um centavo",
		50:             "cinquenta centavos",
		100:            "um real",
		150:            "um real e cinquenta centavos",
		1000:           "dez reais",
		2100:           "vinte e um reais",
		10000:          "cem reais",
		15000:          "cento e cinquenta reais",
		15030:          "cento e cinquenta reais e trinta centavos",
		20001:          "duzentos reais e um centavo",
		100000:         "mil reais",
		110000:         "mil e cem reais",
		111000:         "mil cento e dez reais",
		200500:         "dois mil e cinco reais",
		1234567:        "doze mil trezentos e quarenta e cinco reais e sessenta e sete centavos",
		100000000:      "um milhão de reais",
		250000000:      "dois milhões e quinhentos mil reais",
		100000100:      "um milhão e um reais",
		99999999999:    "novecentos e noventa e nove milhões novecentos e noventa e nove mil novecentos e noventa e nove reais e noventa e nove centavos",
		1_000_000_0000: "cem milhões de reais",
	} {
		if got := MoneyWords(cents); got != want {
			t.Errorf("MoneyWords(%d) = %q, want %q", cents, got, want)
		}
	}
}

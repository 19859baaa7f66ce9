package brfmt

import "strings"

var (
	units    = [20]string{"zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez", "onze", "doze", "treze", "quatorze", "quinze", "dezesseis", "dezessete", "dezoito", "dezenove"}
	tens     = [10]string{"", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"}
	hundreds = [10]string{"", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos", "setecentos", "oitocentos", "novecentos"}
)

// under1000 writes 1–999 in words ("cento e cinquenta", "cem", "vinte e um").
func under1000(n int64) string {
	if n == 100 {
		return "cem"
	}
	var parts []string
	if n >= 100 {
		parts = append(parts, hundreds[n/100])
		n %= 100
	}
	switch {
	case n == 0:
	case n < 20:
		parts = append(parts, units[n])
	default:
		parts = append(parts, tens[n/10])
		if n%10 != 0 {
			parts = append(parts, units[n%10])
		}
	}
	return strings.Join(parts, " e ")
}

// number writes 1–999.999.999.999 in words, as a receipt's "valor por
// extenso" reads: groups of thousands joined by "e" when the lower group is
// below a hundred or a whole hundred ("mil e cem", "mil cento e dez", "dois
// mil e cinco"), "mil" never "um mil".
func number(n int64) string {
	type group struct {
		v        int64
		one, few string
	}
	groups := []group{{n / 1_000_000_000 % 1000, "bilhão", "bilhões"}, {n / 1_000_000 % 1000, "milhão", "milhões"}, {n / 1000 % 1000, "mil", "mil"}, {n % 1000, "", ""}}
	last := 0
	for i, g := range groups {
		if g.v != 0 {
			last = i
		}
	}
	var parts []string
	for i, g := range groups {
		if g.v == 0 {
			continue
		}
		var w string
		switch {
		case g.one == "mil" && g.v == 1:
			w = "mil"
		case g.one == "":
			w = under1000(g.v)
		case g.v == 1:
			w = "um " + g.one
		default:
			w = under1000(g.v) + " " + g.few
		}
		if len(parts) > 0 && i == last && (g.v < 100 || g.v%100 == 0) {
			w = "e " + w
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

// MoneyWords writes centavos in words for a receipt: "cento e cinquenta
// reais", "um real e cinquenta centavos", "um milhão de reais", "cinquenta
// centavos", "zero real".
func MoneyWords(cents int64) string {
	if cents <= 0 {
		return "zero real"
	}
	reais, rest := cents/100, cents%100
	var out string
	if reais > 0 {
		out = number(reais)
		switch {
		case reais == 1:
			out += " real"
		case reais%1_000_000 == 0:
			out += " de reais"
		default:
			out += " reais"
		}
	}
	if rest > 0 {
		c := number(rest) + " centavos"
		if rest == 1 {
			c = "um centavo"
		}
		if out != "" {
			out += " e "
		}
		out += c
	}
	return out
}

// Package brfmt writes dates and money the way Brazilian readers expect them,
// for e-mails, notifications and exports: the one place for pt-BR text
// formatting on the server (the web app has its own, for the screens).
package brfmt

import (
	"fmt"
	"strings"
	"time"
)

var (
	weekdays = [7]string{"domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"}
	months   = [12]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}
)

// Day writes t's calendar date as "30/11/2026" (t already in the zone meant).
func Day(t time.Time) string { return t.Format("02/01/2006") }

// DayTime writes t as "30/11/2026 às 14:05" (t already in the zone meant).
func DayTime(t time.Time) string { return t.Format("02/01/2006 às 15:04") }

// Date writes a stored date "2026-11-30" as "30/11/2026"; anything that is
// not such a date is returned as it is.
func Date(iso string) string {
	t, err := time.Parse("2006-01-02", iso)
	if err != nil {
		return iso
	}
	return Day(t)
}

// LongDate writes "2026-11-30" as "segunda-feira, 30 de novembro de 2026";
// anything that is not such a date is returned as it is.
func LongDate(iso string) string {
	t, err := time.Parse("2006-01-02", iso)
	if err != nil {
		return iso
	}
	return fmt.Sprintf("%s, %d de %s de %d", weekdays[t.Weekday()], t.Day(), months[t.Month()-1], t.Year())
}

// Month writes a month "2026-11" as "novembro de 2026"; anything that is
// not such a month is returned as it is.
func Month(ym string) string {
	t, err := time.Parse("2006-01", ym)
	if err != nil {
		return ym
	}
	return fmt.Sprintf("%s de %d", months[t.Month()-1], t.Year())
}

// Status writes an appointment's status as the owner's screens say it, in
// lower case for a spreadsheet's cells: "confirmado", "cancelado",
// "concluído", "não compareceu". An unknown status is returned as it is.
func Status(status string) string {
	if s, ok := statuses[status]; ok {
		return s
	}
	return status
}

var statuses = map[string]string{"confirmed": "confirmado", "awaiting_deposit": "aguardando sinal", "cancelled": "cancelado", "completed": "concluído", "no_show": "não compareceu"}

// Money writes centavos as "R$ 1.234,50", as the spec writes amounts.
func Money(cents int64) string {
	whole := fmt.Sprintf("%d", cents/100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "." + whole[i:]
	}
	return fmt.Sprintf("R$ %s,%02d", whole, cents%100)
}

// SheetMoney writes centavos in a CSV's cell as Brazilians write money,
// "R$ 1.234,50" (issue 39: the export said "R$ 1234,50"); a spreadsheet in
// pt-BR reads it as currency, thousands dot and all.
func SheetMoney(cents int64) string {
	return Money(cents)
}

// Minutes writes a span of minutes as people say it: "30 minutos", "1 hora",
// "2 horas e 30 minutos", "1 dia", "2 dias".
func Minutes(m int) string {
	unit := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	switch {
	case m >= 24*60 && m%(24*60) == 0:
		return unit(m/(24*60), "dia", "dias")
	case m >= 60 && m%60 == 0:
		return unit(m/60, "hora", "horas")
	case m > 60:
		return unit(m/60, "hora", "horas") + " e " + unit(m%60, "minuto", "minutos")
	default:
		return unit(m, "minuto", "minutos")
	}
}

// Phone reads a Brazilian phone as it is stored: the DDD and 8 or 9 digits.
// Spaces, parentheses, dashes, dots and a + may separate the digits; any
// other character means it is not a phone. 12 or 13 digits starting with 55
// carry the country code, which is dropped; 10 or 11 digits are DDD and
// number even when the DDD is 55 (Rio Grande do Sul), so "(55) 99999-1234"
// keeps its area code. No DDD starts with 0. The web app's twin is
// phoneDigits (web/src/lib/phone.ts); both are tested from
// web/src/lib/phone-cases.json.
func Phone(raw string) (string, bool) {
	var b strings.Builder
	for _, r := range raw {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case strings.ContainsRune(" ()-.+", r):
		default:
			return "", false
		}
	}
	d := b.String()
	if (len(d) == 12 || len(d) == 13) && strings.HasPrefix(d, "55") {
		d = d[2:]
	}
	if len(d) != 10 && len(d) != 11 || d[0] == '0' {
		return "", false
	}
	return d, true
}

// PhoneText is a Brazilian phone as people write it: "(11) 97444-2812",
// "(11) 3333-4444"; a text that is not a phone is returned as it was.
func PhoneText(raw string) string {
	d, ok := Phone(raw)
	if !ok {
		return strings.TrimSpace(raw)
	}
	return "(" + d[:2] + ") " + d[2:len(d)-4] + "-" + d[len(d)-4:]
}

// WhatsAppNumber is a Brazilian phone in international form, the digits
// WhatsApp knows it by: 55 and the phone as Phone reads it; "" when it is
// not a phone.
func WhatsAppNumber(phone string) string {
	d, ok := Phone(phone)
	if !ok {
		return ""
	}
	return "55" + d
}

// WhatsApp is a Brazilian phone as a wa.me link (WhatsAppNumber), the web
// app's whatsappFor (web/src/lib/whatsapp.ts); "" when it is not a phone.
func WhatsApp(phone string) string {
	n := WhatsAppNumber(phone)
	if n == "" {
		return ""
	}
	return "https://wa.me/" + n
}

// OneLine is a name or a message parameter as one line: every run of
// white space (tabs, line breaks, several spaces) one space, and no space
// at either end. WhatsApp refuses for good a template parameter with a
// tab, a new line or more than four consecutive spaces (Meta's error
// 132018), so every text parameter goes through it, and names are saved
// through it.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// SheetCell neutralises a value a spreadsheet would run as a formula (the
// CSV exports: the clients list, a client's data, the records' holders).
func SheetCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

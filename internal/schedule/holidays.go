package schedule

import (
	"sort"
	"sync"
	"time"
)

// Holiday is a date the practice is closed unless the owner opens it.
type Holiday struct {
	Key  string // stable across years: "carnaval-segunda", or "custom-<id>" for the owner's
	Name string
	Date time.Time // midnight UTC of the date
}

type fixed struct {
	key, name  string
	month, day int
	since      int // first year it is a national holiday
}

// Brazil's national holidays on fixed dates (Lei 662/1949, 6.802/1980,
// 10.607/2002; 14.759/2023 for 20 de novembro, from 2024).
var fixedHolidays = []fixed{
	{"confraternizacao", "Confraternização Universal", 1, 1, 0},
	{"tiradentes", "Tiradentes", 4, 21, 0},
	{"trabalho", "Dia do Trabalho", 5, 1, 0},
	{"independencia", "Independência do Brasil", 9, 7, 0},
	{"aparecida", "Nossa Senhora Aparecida", 10, 12, 0},
	{"finados", "Finados", 11, 2, 0},
	{"republica", "Proclamação da República", 11, 15, 0},
	{"consciencia-negra", "Dia Nacional de Zumbi e da Consciência Negra", 11, 20, 2024},
	{"natal", "Natal", 12, 25, 0},
}

type moveable struct {
	key, name string
	offset    int // days from Easter Sunday
}

// The dates that move with Easter: Carnaval (Monday and Tuesday before Ash
// Wednesday), Good Friday and Corpus Christi. Carnaval and Corpus Christi are
// "pontos facultativos" nationally, but most practices close: closed by
// default like the rest, and each one can be opened.
var moveableHolidays = []moveable{
	{"carnaval-segunda", "Carnaval (segunda-feira)", -48},
	{"carnaval-terca", "Carnaval (terça-feira)", -47},
	{"sexta-santa", "Sexta-feira Santa", -2},
	{"corpus-christi", "Corpus Christi", 60},
}

// Easter is Easter Sunday of a Gregorian year (the anonymous Gregorian
// algorithm, Meeus/Jones/Butcher), as midnight UTC.
func Easter(year int) time.Time {
	a := year % 19
	b, c := year/100, year%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
}

var nationalByYear sync.Map // year → []Holiday

// National returns Brazil's national holidays of a year, by date. The slice
// is shared (computed once per year): callers must not change it.
func National(year int) []Holiday {
	if hs, ok := nationalByYear.Load(year); ok {
		return hs.([]Holiday)
	}
	hs := national(year)
	nationalByYear.Store(year, hs)
	return hs
}

func national(year int) []Holiday {
	var out []Holiday
	for _, f := range fixedHolidays {
		if year >= f.since {
			out = append(out, Holiday{Key: f.key, Name: f.name, Date: time.Date(year, time.Month(f.month), f.day, 0, 0, 0, 0, time.UTC)})
		}
	}
	easter := Easter(year)
	for _, m := range moveableHolidays {
		out = append(out, Holiday{Key: m.key, Name: m.name, Date: easter.AddDate(0, 0, m.offset)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date.Before(out[j].Date) })
	return out
}

// IsNationalKey reports whether key names one of the national holidays.
func IsNationalKey(key string) bool {
	for _, f := range fixedHolidays {
		if f.key == key {
			return true
		}
	}
	for _, m := range moveableHolidays {
		if m.key == key {
			return true
		}
	}
	return false
}

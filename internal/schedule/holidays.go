package schedule

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/slots"
	"github.com/google/uuid"
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

// HolidayEntry is a holiday of a year as the owner sees it.
type HolidayEntry struct {
	Key      string `json:"key"`
	Name     string `json:"name"`
	Date     string `json:"date"`
	National bool   `json:"national"`
	Open     bool   `json:"open"`
}

// HolidayInput is a state or municipal holiday, every year on that day.
type HolidayInput struct {
	Name  string `json:"name"`
	Month int    `json:"month"`
	Day   int    `json:"day"`
}

// Holidays lists a year's holidays, national and the owner's own, by date.
func (s *Settings) Holidays(ctx context.Context, userID string, year int) ([]HolidayEntry, error) {
	open := map[string]bool{}
	if err := db.Each(ctx, s.DB, `SELECT holiday_key FROM open_holidays WHERE user_id = ?`, []any{userID}, func(r *sql.Rows) error {
		var k string
		if err := r.Scan(&k); err != nil {
			return err
		}
		open[k] = true
		return nil
	}); err != nil {
		return nil, err
	}
	out := []HolidayEntry{}
	for _, h := range National(year) {
		out = append(out, HolidayEntry{Key: h.Key, Name: h.Name, Date: h.Date.Format("2006-01-02"), National: true, Open: open[h.Key]})
	}
	err := db.Each(ctx, s.DB, `SELECT id, name, month, day FROM custom_holidays WHERE user_id = ?`, []any{userID}, func(r *sql.Rows) error {
		var c custom
		if err := r.Scan(&c.id, &c.name, &c.month, &c.day); err != nil {
			return err
		}
		date := time.Date(year, time.Month(c.month), c.day, 0, 0, 0, 0, time.UTC)
		if date.Day() != c.day {
			return nil // 29/02 of a year without it
		}
		out = append(out, HolidayEntry{Key: "custom-" + c.id, Name: c.name, Date: date.Format("2006-01-02")})
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out, err
}

// SetHolidayOpen opens (the practice works) or closes a national holiday, every year.
func (s *Settings) SetHolidayOpen(ctx context.Context, userID, key string, open bool) error {
	if !IsNationalKey(key) {
		return errNotFound
	}
	if !open {
		return s.DB.OwnerExec(ctx, userID, nil, `DELETE FROM open_holidays WHERE user_id = ? AND holiday_key = ?`, userID, key)
	}
	return s.DB.OwnerExec(ctx, userID, nil, `INSERT INTO open_holidays (user_id, holiday_key) VALUES (?, ?) ON CONFLICT (user_id, holiday_key) DO NOTHING`, userID, key)
}

// AddHoliday adds a state or municipal holiday and returns it for the owner's current year.
func (s *Settings) AddHoliday(ctx context.Context, userID string, in HolidayInput) (*HolidayEntry, error) {
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" || utf8.RuneCountInString(in.Name) > 80 {
		return nil, errHolidayName
	}
	if in.Month < 1 || in.Month > 12 || in.Day < 1 || in.Day > time.Date(2024, time.Month(in.Month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return nil, errHolidayDay
	}
	loc, err := Zone(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	id := uuid.NewString()
	if err := s.DB.OwnerExec(ctx, userID, nil, `INSERT INTO custom_holidays (id, user_id, name, month, day) VALUES (?, ?, ?, ?, ?)`, id, userID, in.Name, in.Month, in.Day); err != nil {
		if db.IsUniqueViolation(err) { // one per date (custom_holidays_once)
			return nil, httpx.NewError(http.StatusConflict, "holiday_exists",
				fmt.Sprintf("Você já tem um feriado em %02d/%02d. Para trocar o nome, remova o que existe e adicione de novo.", in.Day, in.Month))
		}
		return nil, err
	}
	year := s.Clock.Now().In(loc).Year()
	date := time.Date(year, time.Month(in.Month), in.Day, 0, 0, 0, 0, time.UTC)
	for date.Day() != in.Day { // 29/02: the next year that has it
		year++
		date = time.Date(year, time.Month(in.Month), in.Day, 0, 0, 0, 0, time.UTC)
	}
	return &HolidayEntry{Key: "custom-" + id, Name: in.Name, Date: date.Format("2006-01-02")}, nil
}

// DeleteHoliday removes one of the owner's own holidays.
func (s *Settings) DeleteHoliday(ctx context.Context, userID, key string) error {
	id, ok := strings.CutPrefix(key, "custom-")
	if !ok {
		return errNotFound
	}
	return s.DB.OwnerExec(ctx, userID, errNotFound, `DELETE FROM custom_holidays WHERE id = ? AND user_id = ?`, id, userID)
}

func (h *SettingsHandlers) listHolidays(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	year := 0
	if raw := r.URL.Query().Get("year"); raw != "" {
		y, err := strconv.Atoi(raw)
		if err != nil || y < slots.MinYear || y > slots.MaxYear {
			return errYear
		}
		year = y
	}
	if year == 0 {
		loc, err := Zone(r.Context(), h.Settings.DB, uid)
		if err != nil {
			return err
		}
		year = h.Settings.Clock.Now().In(loc).Year()
	}
	list, err := h.Settings.Holidays(r.Context(), uid, year)
	return httpx.Respond(w, http.StatusOK, map[string]any{"year": year, "holidays": list}, err)
}

func (h *SettingsHandlers) addHoliday(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	var in HolidayInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Settings.AddHoliday(r.Context(), uid, in)
	return httpx.Respond(w, http.StatusCreated, out, err)
}

func (h *SettingsHandlers) setHolidayOpen(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	var in struct {
		Open *bool `json:"open"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Open == nil {
		return httpx.Validation("Informe se o feriado fica aberto.")
	}
	return noContent(w, h.Settings.SetHolidayOpen(r.Context(), uid, r.PathValue("key"), *in.Open))
}

func (h *SettingsHandlers) deleteHoliday(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	return noContent(w, h.Settings.DeleteHoliday(r.Context(), uid, r.PathValue("key")))
}

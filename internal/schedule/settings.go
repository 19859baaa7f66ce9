package schedule

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking/slots"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/tz"
)

// The owner's side of schedules: days off, holidays, the booking rules, and
// the plan of a range of dates the agenda labels its days with.

var (
	errNotFound     = httpx.NewError(http.StatusNotFound, "not_found", "Não encontrado.")
	errDates        = httpx.Validation("Informe datas válidas, no formato AAAA-MM-DD.")
	errOrder        = httpx.Validation("A data final deve ser igual ou posterior à inicial.")
	errLong         = httpx.Validation("Uma folga pode ter no máximo 366 dias.")
	errReason       = httpx.Validation("O motivo deve ter no máximo 120 caracteres.")
	errProfessional = httpx.Validation("Escolha um profissional da sua equipe.")
	errHolidayName  = httpx.Validation("Informe o nome do feriado (até 80 caracteres).")
	errHolidayDay   = httpx.Validation("Informe um dia válido do mês.")
	errStep         = httpx.Validation("O intervalo entre horários deve ser 15, 30 ou 60 minutos, ou a duração do serviço.")
	errNotice       = httpx.Validation("A antecedência mínima deve ser de 0 a 30 dias.")
	errWindow       = httpx.Validation("Os agendamentos podem ser abertos de 1 a 365 dias à frente.")
	errCutoff       = httpx.Validation("O prazo de cancelamento deve ser de 0 a 720 horas.")
	errRange        = httpx.Validation("Escolha um período de até 62 dias, com datas válidas.")
	errYear         = httpx.Validation("Ano inválido.")
)

// DayOff is a closed date range of the practice (ProfessionalID nil) or of one professional.
type DayOff struct {
	ID               string  `json:"id"`
	ProfessionalID   *string `json:"professionalId"`
	ProfessionalName string  `json:"professionalName"`
	Start            string  `json:"start"`
	End              string  `json:"end"`
	Reason           string  `json:"reason"`
	// Kept are the confirmed appointments it was saved over and left in
	// place by the owner's choice.
	Kept []string `json:"kept"`
}

// DayOffInput is a new day off; End defaults to Start. Keep names the
// confirmed appointments of those dates the owner chose to leave in place;
// any other refuses the save.
type DayOffInput struct {
	ProfessionalID *string  `json:"professionalId"`
	Start          string   `json:"start"`
	End            string   `json:"end"`
	Reason         string   `json:"reason"`
	Keep           []string `json:"keep"`
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

// Day is one date's plan as the agenda shows it.
type Day struct {
	Date    string   `json:"date"`
	Windows []Window `json:"windows"`
	Closed  Closed   `json:"closed"`
	Label   string   `json:"label"`
}

// Window is a stretch of work as HH:MM.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Settings reads and writes an owner's days off, holidays and rules.
type Settings struct {
	DB    *db.DB
	Clock clock.Clock
	Notes *notifications.Service // blocks added and removed are told to the owner's tabs
}

func (s *Settings) zone(ctx context.Context, userID string) (*time.Location, error) {
	var name string
	if err := s.DB.QueryRowContext(ctx, `SELECT time_zone FROM profiles WHERE id = ?`, userID).Scan(&name); err != nil {
		return nil, err
	}
	return tz.Load(name), nil
}

// DaysOff lists the days off that have not ended, by start.
func (s *Settings) DaysOff(ctx context.Context, userID string) ([]DayOff, error) {
	loc, err := s.zone(ctx, userID)
	if err != nil {
		return nil, err
	}
	today := slots.Today(s.Clock.Now(), loc)
	out := []DayOff{}
	err = db.Each(ctx, s.DB, `SELECT d.id, d.professional_id, COALESCE(p.name, ''), d.start_date, d.end_date, d.reason, d.kept
		FROM days_off d LEFT JOIN professionals p ON p.id = d.professional_id
		WHERE d.user_id = ? AND d.end_date >= ? ORDER BY d.start_date, d.end_date, d.id`, []any{userID, today}, func(r *sql.Rows) error {
		var d DayOff
		var pro sql.NullString
		var kept string
		if err := r.Scan(&d.ID, &pro, &d.ProfessionalName, &d.Start, &d.End, &d.Reason, &kept); err != nil {
			return err
		}
		d.Kept = keptList(kept)
		if pro.Valid {
			d.ProfessionalID = &pro.String
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// checkDayOff validates a new day off.
func checkDayOff(in DayOffInput) (DayOff, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	if in.End == "" {
		in.End = in.Start
	}
	start, err1 := slots.ParseDate(in.Start)
	end, err2 := slots.ParseDate(in.End)
	switch {
	case err1 != nil || err2 != nil:
		return DayOff{}, errDates
	case end.Before(start):
		return DayOff{}, errOrder
	case end.Sub(start) > 365*24*time.Hour:
		return DayOff{}, errLong
	case utf8.RuneCountInString(in.Reason) > 120:
		return DayOff{}, errReason
	}
	d := DayOff{ID: uuid.NewString(), ProfessionalID: in.ProfessionalID, Start: in.Start, End: in.End, Reason: in.Reason, Kept: []string{}}
	if in.ProfessionalID != nil && *in.ProfessionalID == "" {
		d.ProfessionalID = nil
	}
	return d, nil
}

// AddDayOff closes a date range. A confirmed appointment of those dates
// stays only when the owner says so (Keep), and is recorded with the day
// off; it is decided under the same locks as a booking, as a block is.
func (s *Settings) AddDayOff(ctx context.Context, userID string, in DayOffInput) (*DayOff, error) {
	d, err := checkDayOff(in)
	if err != nil {
		return nil, err
	}
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		name, found, err := lockProfessionals(ctx, tx, userID, d.ProfessionalID)
		if err != nil {
			return err
		}
		if !found {
			return errProfessional
		}
		d.ProfessionalName = name
		list, err := affected(ctx, tx, userID, d.ProfessionalID, d.Start, d.End, 0, 24*60)
		if err != nil {
			return err
		}
		kept, err := settle(list, in.Keep)
		if err != nil {
			return err
		}
		d.Kept = keptList(kept)
		var pro any
		if d.ProfessionalID != nil {
			pro = *d.ProfessionalID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO days_off (id, user_id, professional_id, start_date, end_date, reason, kept, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, userID, pro, d.Start, d.End, d.Reason, kept, s.Clock.Now()); err != nil {
			return err
		}
		return s.tellDayOff(ctx, tx, userID, "Folga registrada", d)
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// DeleteDayOff opens the dates again.
func (s *Settings) DeleteDayOff(ctx context.Context, userID, id string) error {
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var d DayOff
		var pro sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT d.start_date, d.end_date, d.reason, p.name FROM days_off d LEFT JOIN professionals p ON p.id = d.professional_id
			WHERE d.id = ? AND d.user_id = ?`, id, userID).Scan(&d.Start, &d.End, &d.Reason, &pro)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		if pro.Valid {
			d.ProfessionalID, d.ProfessionalName = &pro.String, pro.String
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM days_off WHERE id = ? AND user_id = ?`, id, userID); err != nil {
			return err
		}
		return s.tellDayOff(ctx, tx, userID, "Folga removida", d)
	})
}

// tellDayOff is the owner's notification of days off added or removed.
func (s *Settings) tellDayOff(ctx context.Context, tx *db.Tx, userID, title string, d DayOff) error {
	when := brfmt.Date(d.Start)
	if d.End != d.Start {
		when = "de " + when + " a " + brfmt.Date(d.End)
	}
	return s.Notes.Create(ctx, tx, userID, notifications.Appointment, title, note(who(d.ProfessionalID, d.ProfessionalName)+": "+when, d.Reason), "")
}

// who names what a block or day off covers: a professional or the practice.
func who(professionalID *string, name string) string {
	if professionalID != nil {
		return name
	}
	return "Toda a clínica"
}

// note ends a notification's text, with the owner's reason if given.
func note(text, reason string) string {
	if reason != "" {
		text += " (" + reason + ")"
	}
	return text + "."
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
		_, err := s.DB.ExecContext(ctx, `DELETE FROM open_holidays WHERE user_id = ? AND holiday_key = ?`, userID, key)
		return err
	}
	_, err := s.DB.ExecContext(ctx, `INSERT INTO open_holidays (user_id, holiday_key) VALUES (?, ?) ON CONFLICT (user_id, holiday_key) DO NOTHING`, userID, key)
	return err
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
	loc, err := s.zone(ctx, userID)
	if err != nil {
		return nil, err
	}
	id := uuid.NewString()
	if _, err := s.DB.ExecContext(ctx, `INSERT INTO custom_holidays (id, user_id, name, month, day) VALUES (?, ?, ?, ?, ?)`, id, userID, in.Name, in.Month, in.Day); err != nil {
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
	return db.ExecOwned(ctx, s.DB, errNotFound, `DELETE FROM custom_holidays WHERE id = ? AND user_id = ?`, id, userID)
}

// Rules returns the owner's booking rules.
func (s *Settings) Rules(ctx context.Context, userID string) (*Rules, error) {
	var r Rules
	err := s.DB.QueryRowContext(ctx, `SELECT slot_step, min_notice_minutes, booking_window_days, cancel_cutoff_hours FROM profiles WHERE id = ?`, userID).
		Scan(&r.SlotStep, &r.MinNoticeMinutes, &r.BookingWindowDays, &r.CancelCutoffHours)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return &r, err
}

// SaveRules checks and saves the booking rules.
func (s *Settings) SaveRules(ctx context.Context, userID string, r Rules) (*Rules, error) {
	switch {
	case r.SlotStep != 0 && r.SlotStep != 15 && r.SlotStep != 30 && r.SlotStep != 60:
		return nil, errStep
	case r.MinNoticeMinutes < 0 || r.MinNoticeMinutes > 43200:
		return nil, errNotice
	case r.BookingWindowDays < 1 || r.BookingWindowDays > 365:
		return nil, errWindow
	case r.CancelCutoffHours < 0 || r.CancelCutoffHours > 720:
		return nil, errCutoff
	}
	err := db.ExecOwned(ctx, s.DB, errNotFound, `UPDATE profiles SET slot_step = ?, min_notice_minutes = ?, booking_window_days = ?, cancel_cutoff_hours = ? WHERE id = ?`,
		r.SlotStep, r.MinNoticeMinutes, r.BookingWindowDays, r.CancelCutoffHours, userID)
	if err != nil {
		return nil, err
	}
	return s.Rules(ctx, userID)
}

// Range is the plan of each date from..to (at most 62 days): one
// professional's, or the union of the active professionals' windows, closed
// with the practice's own label when nobody works.
func (s *Settings) Range(ctx context.Context, userID, from, to, professionalID string) ([]Day, error) {
	first, err1 := slots.ParseDate(from)
	last, err2 := slots.ParseDate(to)
	if err1 != nil || err2 != nil || last.Before(first) || last.Sub(first) > 62*24*time.Hour {
		return nil, errRange
	}
	st, err := Load(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	var who []string
	if professionalID != "" {
		if st.Professionals[professionalID] == nil {
			return nil, errNotFound
		}
		who = []string{professionalID}
	} else {
		for id, p := range st.Professionals {
			if p.Active {
				who = append(who, id)
			}
		}
	}
	out := []Day{}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		var plans []Plan
		for _, id := range who {
			plans = append(plans, st.Plan(id, d))
		}
		if len(who) == 0 {
			plans = append(plans, st.Plan("", d))
		}
		day := Day{Date: d.Format("2006-01-02"), Windows: []Window{}}
		merged := union(plans)
		if len(merged) == 0 {
			closed := plans[0]
			if len(who) > 1 {
				closed = st.Plan("", d) // nobody works: say why the practice is closed
				if closed.Closed == Open {
					closed = plans[0]
				}
			}
			day.Closed, day.Label = closed.Closed, closed.Label
			if day.Closed == Open {
				day.Closed, day.Label = ClosedWeekday, "Fechado"
			}
		}
		for _, w := range merged {
			day.Windows = append(day.Windows, Window{slots.FormatHHMM(w[0]), slots.FormatHHMM(w[1])})
		}
		out = append(out, day)
	}
	return out, nil
}

// union merges the plans' windows: sorted, overlapping or touching ones joined.
func union(plans []Plan) [][2]int {
	var all [][2]int
	for _, p := range plans {
		all = append(all, p.Windows...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i][0] < all[j][0] })
	var out [][2]int
	for _, w := range all {
		if n := len(out); n > 0 && w[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], w[1])
			continue
		}
		out = append(out, w)
	}
	return out
}

// SettingsHandlers serves the owner's schedule endpoints.
type SettingsHandlers struct {
	Settings *Settings
	Auth     *auth.Handlers
}

// Register adds the routes.
func (h *SettingsHandlers) Register(mux *http.ServeMux) {
	route := func(pattern string, fn func(w http.ResponseWriter, r *http.Request, userID string) error) {
		mux.Handle(pattern, h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
			return fn(w, r, auth.UserID(r.Context()))
		})))
	}
	route("GET /api/days-off", func(w http.ResponseWriter, r *http.Request, uid string) error {
		out, err := h.Settings.DaysOff(r.Context(), uid)
		return httpx.Respond(w, http.StatusOK, out, err)
	})
	route("POST /api/days-off", func(w http.ResponseWriter, r *http.Request, uid string) error {
		var in DayOffInput
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		out, err := h.Settings.AddDayOff(r.Context(), uid, in)
		return httpx.Respond(w, http.StatusCreated, out, err)
	})
	route("POST /api/days-off/preview", func(w http.ResponseWriter, r *http.Request, uid string) error {
		var in DayOffInput
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		out, err := h.Settings.DayOffAffected(r.Context(), uid, in)
		return httpx.Respond(w, http.StatusOK, map[string][]Affected{"appointments": out}, err)
	})
	route("DELETE /api/days-off/{id}", func(w http.ResponseWriter, r *http.Request, uid string) error {
		return noContent(w, h.Settings.DeleteDayOff(r.Context(), uid, r.PathValue("id")))
	})
	route("GET /api/blocks", func(w http.ResponseWriter, r *http.Request, uid string) error {
		out, err := h.Settings.Blocks(r.Context(), uid, r.URL.Query().Get("from"), r.URL.Query().Get("to"))
		return httpx.Respond(w, http.StatusOK, out, err)
	})
	route("POST /api/blocks", func(w http.ResponseWriter, r *http.Request, uid string) error {
		var in BlockInput
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		out, err := h.Settings.AddBlock(r.Context(), uid, in)
		return httpx.Respond(w, http.StatusCreated, out, err)
	})
	route("POST /api/blocks/preview", func(w http.ResponseWriter, r *http.Request, uid string) error {
		var in BlockInput
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		out, err := h.Settings.BlockAffected(r.Context(), uid, in)
		return httpx.Respond(w, http.StatusOK, map[string][]Affected{"appointments": out}, err)
	})
	route("DELETE /api/blocks/{id}", func(w http.ResponseWriter, r *http.Request, uid string) error {
		return noContent(w, h.Settings.DeleteBlock(r.Context(), uid, r.PathValue("id")))
	})
	route("GET /api/holidays", func(w http.ResponseWriter, r *http.Request, uid string) error {
		year := 0
		if raw := r.URL.Query().Get("year"); raw != "" {
			y, err := strconv.Atoi(raw)
			if err != nil || y < slots.MinYear || y > slots.MaxYear {
				return errYear
			}
			year = y
		}
		if year == 0 {
			loc, err := h.Settings.zone(r.Context(), uid)
			if err != nil {
				return err
			}
			year = h.Settings.Clock.Now().In(loc).Year()
		}
		list, err := h.Settings.Holidays(r.Context(), uid, year)
		return httpx.Respond(w, http.StatusOK, map[string]any{"year": year, "holidays": list}, err)
	})
	route("POST /api/holidays", func(w http.ResponseWriter, r *http.Request, uid string) error {
		var in HolidayInput
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		out, err := h.Settings.AddHoliday(r.Context(), uid, in)
		return httpx.Respond(w, http.StatusCreated, out, err)
	})
	route("PUT /api/holidays/{key}", func(w http.ResponseWriter, r *http.Request, uid string) error {
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
	})
	route("DELETE /api/holidays/{key}", func(w http.ResponseWriter, r *http.Request, uid string) error {
		return noContent(w, h.Settings.DeleteHoliday(r.Context(), uid, r.PathValue("key")))
	})
	route("GET /api/schedule-rules", func(w http.ResponseWriter, r *http.Request, uid string) error {
		out, err := h.Settings.Rules(r.Context(), uid)
		return httpx.Respond(w, http.StatusOK, out, err)
	})
	route("PUT /api/schedule-rules", func(w http.ResponseWriter, r *http.Request, uid string) error {
		var in Rules
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		out, err := h.Settings.SaveRules(r.Context(), uid, in)
		return httpx.Respond(w, http.StatusOK, out, err)
	})
	route("GET /api/schedule", func(w http.ResponseWriter, r *http.Request, uid string) error {
		q := r.URL.Query()
		out, err := h.Settings.Range(r.Context(), uid, q.Get("from"), q.Get("to"), q.Get("professional"))
		return httpx.Respond(w, http.StatusOK, out, err)
	})
}

func noContent(w http.ResponseWriter, err error) error {
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

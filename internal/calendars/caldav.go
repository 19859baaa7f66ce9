package calendars

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-ical"
	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/caldav"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/secretbox"
	"github.com/agendei/agendei/internal/platform/tz"
)

// A professional's calendar on a CalDAV server (issue 42 §2: iCloud,
// Nextcloud, Fastmail, Zoho, any server): the server's address, the user and
// an app password (both sealed, never answered: the card shows the host and
// the user), the calendars whose events count as busy, and the one
// Agendei's appointments are written to. Same table, job and card as the
// iCal address; every request through the guarded client.

// KindCalDAV is a calendar read (and written) over CalDAV; it names the
// source of its busy time too (busy_imported.source).
const KindCalDAV = "caldav"

// maxCalDAVCalendars bounds the calendars one professional reads.
const maxCalDAVCalendars = 20

// CalDAVLogin is what discovery needs: the server's address, the user and
// the app password. Empty fields take the stored connection's, so an owner
// changing the chosen calendars does not type the password again.
type CalDAVLogin struct {
	URL      string `json:"url"`
	User     string `json:"user"`
	Password string `json:"password"`
}

// CalDAVCalendar is one of the account's calendars, as the card lists it.
type CalDAVCalendar struct {
	Path string `json:"path"`
	Name string `json:"name"`
}

// CalDAVInput is the card's form: the login, the calendars read as busy,
// the one written to (” writes nothing) and the same choices as an address.
type CalDAVInput struct {
	CalDAVLogin
	Calendars     []string `json:"calendars"`
	WriteCalendar string   `json:"writeCalendar"`
	ShowTitles    bool     `json:"showTitles"`
	AllDay        string   `json:"allDay"`
	OnFailure     string   `json:"onFailure"`
}

var (
	errCalDAVLogin     = httpx.Validation("Informe o endereço do servidor CalDAV, o usuário e a senha de app.")
	errCalDAVURL       = httpx.Validation("Endereço do servidor inválido: use o endereço completo, que começa com https:// (por exemplo https://caldav.icloud.com).")
	errCalDAVAuth      = httpx.NewError(http.StatusBadRequest, "caldav_auth", "O servidor recusou o usuário ou a senha de app. Confira o usuário e crie uma nova senha de app no seu provedor.")
	errCalDAVPick      = httpx.Validation("Escolha agendas desta conta: uma ou mais para os horários ocupados e, se quiser, uma para receber os agendamentos.")
	errCalDAVNone      = httpx.NewError(http.StatusBadRequest, "caldav_no_calendars", "O servidor não mostrou nenhuma agenda de eventos nesta conta. Confira o endereço do servidor.")
	errNoCalDAVAccount = httpx.NewError(http.StatusNotFound, "not_found", "Nenhuma conta CalDAV conectada a este profissional.")
)

func errCalDAVReach(why string) error {
	return httpx.NewError(http.StatusBadRequest, "caldav_unreachable", "Não conseguimos falar com o servidor CalDAV: "+why+".")
}

// calDAVAccount is a stored CalDAV connection, opened.
type calDAVAccount struct {
	id, owner, professional string
	url, user, password     string
	calendars               []string
	write                   string
	sync                    map[string]string
}

// loadCalDAV is the CalDAV source id with its secrets opened (the kit's
// Rows.Job): sql.ErrNoRows when it is gone or not CalDAV, errSealed when a
// secret does not open.
func (s *Service) loadCalDAV(ctx context.Context, q db.Querier, id string) (*calDAVAccount, error) {
	var kind, cals, syncJSON string
	a := calDAVAccount{}
	row, err := s.rows().Job(ctx, q, id, []connect.Field{
		{Name: fieldCalDAVURL, Column: "url_sealed", Secret: true},
		{Name: "account"},
		{Name: fieldCalDAVPassword, Column: "secret_sealed", Secret: true},
	}, connect.Col{Name: "kind", Into: &kind}, connect.Col{Name: "calendars", Into: &cals}, connect.Col{Name: "write_calendar", Into: &a.write}, connect.Col{Name: "sync", Into: &syncJSON})
	switch {
	case row == nil && err == nil, row != nil && kind != KindCalDAV:
		return nil, sql.ErrNoRows
	case errors.Is(err, secretbox.ErrOpen):
		return nil, errSealed
	case err != nil:
		return nil, err
	}
	a.id, a.owner, a.professional = row.ID, row.Owner, row.Scope
	a.url, a.user, a.password = row.Values[fieldCalDAVURL], row.Values["account"], row.Values[fieldCalDAVPassword]
	_ = json.Unmarshal([]byte(cals), &a.calendars)
	a.sync = map[string]string{}
	_ = json.Unmarshal([]byte(syncJSON), &a.sync)
	return &a, nil
}

var errSealed = errors.New("calendars: a sealed CalDAV secret does not open")

// login fills an empty login from the stored connection and checks it.
func (s *Service) login(ctx context.Context, ownerID, professionalID string, in CalDAVLogin) (CalDAVLogin, error) {
	in.URL, in.User = strings.TrimSpace(in.URL), strings.TrimSpace(in.User)
	if in.URL == "" || in.User == "" || in.Password == "" {
		var id string
		err := s.DB.QueryRowContext(ctx, `SELECT id FROM calendar_sources WHERE user_id = ? AND professional_id = ? AND kind = ?`, ownerID, professionalID, KindCalDAV).Scan(&id)
		var old *calDAVAccount
		if err == nil {
			old, err = s.loadCalDAV(ctx, s.DB, id)
		}
		if err == nil {
			if in.URL == "" && in.User == "" {
				in.URL, in.User = old.url, old.user
			}
			if in.Password == "" && in.URL == old.url && in.User == old.user {
				in.Password = old.password
			}
		}
	}
	if in.URL == "" || in.User == "" || in.Password == "" {
		return in, errCalDAVLogin
	}
	u, err := connect.CheckURL(in.URL)
	if err != nil || utf8.RuneCountInString(in.URL) > 2000 || utf8.RuneCountInString(in.User) > 320 || len(in.Password) > 1000 {
		return in, errCalDAVURL
	}
	in.URL = u.String()
	return in, nil
}

func (s *Service) calDAVClient(l CalDAVLogin) (*caldav.Client, error) {
	return caldav.New(s.httpClient(), l.URL, l.User, l.Password)
}

// Discover signs in to a CalDAV account and lists its event calendars
// (current-user-principal, calendar-home-set). A refused password, or a
// server that cannot be reached, is said in pt-BR (4xx).
func (s *Service) Discover(ctx context.Context, ownerID, professionalID string, in CalDAVLogin) ([]CalDAVCalendar, error) {
	if err := s.ownProfessional(ctx, ownerID, professionalID); err != nil {
		return nil, err
	}
	l, err := s.login(ctx, ownerID, professionalID, in)
	if err != nil {
		return nil, err
	}
	return s.discover(ctx, l)
}

func (s *Service) discover(ctx context.Context, l CalDAVLogin) ([]CalDAVCalendar, error) {
	c, err := s.calDAVClient(l)
	if err != nil {
		return nil, errCalDAVURL
	}
	found, err := c.Calendars(ctx)
	if err != nil {
		return nil, discoverError(err)
	}
	if len(found) == 0 {
		return nil, errCalDAVNone
	}
	out := make([]CalDAVCalendar, 0, len(found))
	for _, f := range found {
		out = append(out, CalDAVCalendar{Path: f.Path, Name: f.Name})
	}
	return out, nil
}

func discoverError(err error) error {
	switch {
	case caldav.Auth(err):
		return errCalDAVAuth
	case caldav.NotFound(err):
		return errCalDAVReach("o endereço não tem um servidor CalDAV (confira o endereço: no Nextcloud ele termina em /remote.php/dav)")
	}
	var st *caldav.StatusError
	if errors.As(err, &st) {
		return errCalDAVReach(statusReason(st.Code))
	}
	if strings.Contains(err.Error(), "caldav: ") && !isNetError(err) {
		return errCalDAVReach("o endereço não respondeu como um servidor CalDAV")
	}
	return errCalDAVReach(reason(err))
}

// isNetError tells a failure to reach the server from an answer that is not CalDAV.
func isNetError(err error) bool {
	var u interface{ Timeout() bool }
	return errors.As(err, &u) || connect.Refused(err)
}

func (s *Service) ownProfessional(ctx context.Context, ownerID, professionalID string) error {
	var found string
	err := s.DB.QueryRowContext(ctx, `SELECT id FROM professionals WHERE id = ? AND user_id = ?`, professionalID, ownerID).Scan(&found)
	if errors.Is(err, sql.ErrNoRows) {
		return errNotFound
	}
	return err
}

// ConnectCalDAV signs in again, checks that the chosen calendars are the
// account's, and saves the connection (secrets sealed); then reads it at
// once in the background.
func (s *Service) ConnectCalDAV(ctx context.Context, ownerID, professionalID string, in CalDAVInput) (*Source, error) {
	if in.AllDay == "" {
		in.AllDay = "busy"
	}
	if in.OnFailure == "" {
		in.OnFailure = "keep"
	}
	if (in.AllDay != "busy" && in.AllDay != "ignore") || (in.OnFailure != "keep" && in.OnFailure != "drop") {
		return nil, errChoice
	}
	if err := s.ownProfessional(ctx, ownerID, professionalID); err != nil {
		return nil, err
	}
	l, err := s.login(ctx, ownerID, professionalID, in.CalDAVLogin)
	if err != nil {
		return nil, err
	}
	found, err := s.discover(ctx, l)
	if err != nil {
		return nil, err
	}
	has := func(p string) bool {
		return slices.ContainsFunc(found, func(c CalDAVCalendar) bool { return c.Path == p })
	}
	var read []string
	for _, p := range in.Calendars {
		if !has(p) {
			return nil, errCalDAVPick
		}
		if !slices.Contains(read, p) {
			read = append(read, p)
		}
	}
	if len(read) > maxCalDAVCalendars || (len(read) == 0 && in.WriteCalendar == "") || (in.WriteCalendar != "" && !has(in.WriteCalendar)) {
		return nil, errCalDAVPick
	}
	u, _ := connect.CheckURL(l.URL)
	urlSealed, err := s.rows().Seal(ownerID, professionalID, fieldCalDAVURL, l.URL)
	if err != nil {
		return nil, err
	}
	secretSealed, err := s.rows().Seal(ownerID, professionalID, fieldCalDAVPassword, l.Password)
	if err != nil {
		return nil, err
	}
	cals, _ := json.Marshal(read)
	now := s.Clock.Now()
	var out *Source
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM calendar_sources WHERE user_id = ? AND professional_id = ? AND kind = ?`, ownerID, professionalID, KindCalDAV).Scan(&id)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			id = uuid.NewString()
			_, err = tx.ExecContext(ctx, `INSERT INTO calendar_sources (id, user_id, professional_id, kind, url_sealed, host, account, secret_sealed, calendars, write_calendar,
				show_titles, all_day, on_failure, next_read_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, ownerID, professionalID, KindCalDAV, urlSealed, u.Hostname(), l.User, secretSealed, string(cals), in.WriteCalendar, in.ShowTitles, in.AllDay, in.OnFailure, now, now, now)
		case err != nil:
			return err
		default:
			// Anything may have changed: read every calendar afresh.
			_, err = tx.ExecContext(ctx, `UPDATE calendar_sources SET url_sealed = ?, host = ?, account = ?, secret_sealed = ?, calendars = ?, write_calendar = ?, sync = '{}',
				show_titles = ?, all_day = ?, on_failure = ?, last_parsed_at = NULL, last_error = '', last_error_at = NULL, failing_since = NULL, next_read_at = ?, updated_at = ? WHERE id = ?`,
				urlSealed, u.Hostname(), l.User, secretSealed, string(cals), in.WriteCalendar, in.ShowTitles, in.AllDay, in.OnFailure, now, now, id)
		}
		if err != nil {
			return err
		}
		if err := s.Queue.Enqueue(ctx, tx, jobs.About{UserID: ownerID}, JobRead, readJob{ID: id}, now, 1); err != nil {
			return err
		}
		// The appointments already made are written too (or moved, when the
		// calendar written to changed).
		if err := s.queueWrites(ctx, tx, ownerID, professionalID); err != nil {
			return err
		}
		tx.OnCommit(s.Queue.Wake)
		out, err = s.oneKind(ctx, tx, ownerID, professionalID, KindCalDAV)
		return err
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errNotFound
	}
	return out, err
}

// DisconnectCalDAV forgets a professional's CalDAV account and the busy
// time it gave. The events already written there stay (they are the
// owner's now).
func (s *Service) DisconnectCalDAV(ctx context.Context, ownerID, professionalID string) error {
	if _, err := s.oneKind(ctx, s.DB, ownerID, professionalID, KindCalDAV); err != nil {
		return err
	}
	if err := s.clearBusy(ctx, ownerID, professionalID, KindCalDAV); err != nil {
		return err
	}
	return s.DB.OwnerExec(ctx, ownerID, errNoCalDAVAccount, `DELETE FROM calendar_sources WHERE user_id = ? AND professional_id = ? AND kind = ?`, ownerID, professionalID, KindCalDAV)
}

// calDAVSource names one CalDAV calendar's busy time (busy_imported.source,
// "caldav:<path>"): each chosen calendar is its own source, so a read
// replaces only the calendars that changed and leaves the others' as they are.
func calDAVSource(calendar string) string {
	return KindCalDAV + ":" + calendar
}

// busySources are the professional's stored busy sources of kind (each of a
// CalDAV account's calendars, or 'caldav' alone as stored before each
// calendar had its own) and how many intervals each holds.
func (s *Service) busySources(ctx context.Context, ownerID, professionalID, kind string) (map[string]int, error) {
	out := map[string]int{}
	err := db.Each(ctx, s.DB, `SELECT source, COUNT(*) FROM busy_imported WHERE user_id = ? AND professional_id = ? AND (source = ? OR source LIKE ?) GROUP BY source`,
		[]any{ownerID, professionalID, kind, kind + ":%"}, func(r *sql.Rows) error {
			var source string
			var n int
			if err := r.Scan(&source, &n); err != nil {
				return err
			}
			out[source] = n
			return nil
		})
	return out, err
}

// clearBusy drops the professional's busy time of kind, every calendar's but
// keep's, each through ImportBusy.
func (s *Service) clearBusy(ctx context.Context, ownerID, professionalID, kind string, keep ...string) error {
	sources, err := s.busySources(ctx, ownerID, professionalID, kind)
	if err != nil {
		return err
	}
	for _, source := range slices.Sorted(maps.Keys(sources)) {
		if slices.Contains(keep, source) {
			continue
		}
		if _, err := s.Busy.ImportBusy(ctx, ownerID, professionalID, source, nil); err != nil {
			return err
		}
	}
	return nil
}

// readCalDAV reads a CalDAV account's chosen calendars: each one's State
// (sync-token, getctag), and the events over the window of only those whose
// State changed since the last read (every one when the window was not
// expanded lately, fullEvery), each object expanded by Parse as an
// address's file is, become that calendar's busy time (its own source:
// calDAVSource); the unchanged calendars' busy time stays as it is. A
// calendar gone from the server gives its time back and the card says so;
// the others are read all the same. Agendei's own events (written back)
// never count.
func (s *Service) readCalDAV(ctx context.Context, id string) error {
	var src source
	src.kind = KindCalDAV
	err := s.DB.QueryRowContext(ctx, `SELECT id, user_id, professional_id, last_parsed_at, failing_since, show_titles, all_day, on_failure
		FROM calendar_sources WHERE id = ?`, id).Scan(&src.id, &src.owner, &src.professional, &src.parsed, &src.failing, &src.titles, &src.allDay, &src.onFailure)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	a, err := s.loadCalDAV(ctx, s.DB, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return s.failed(ctx, src, "não foi possível abrir a senha guardada; conecte a conta de novo")
	}
	var zone string
	var windowDays int
	if err := s.DB.QueryRowContext(ctx, `SELECT time_zone, booking_window_days FROM profiles WHERE id = ?`, src.owner).Scan(&zone, &windowDays); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	}
	c, err := s.calDAVClient(CalDAVLogin{URL: a.url, User: a.user, Password: a.password})
	if err != nil {
		return s.failed(ctx, src, "endereço do servidor inválido; conecte a conta de novo")
	}
	now := s.Clock.Now()
	stale := !src.parsed.Valid || now.Sub(src.parsed.Time) >= fullEvery
	states := map[string]string{}
	var changed []string
	gone := 0
	for _, cal := range a.calendars {
		st, err := c.State(ctx, cal)
		if caldav.NotFound(err) && len(a.calendars) > 1 {
			gone++ // read the others; its time goes below
			continue
		}
		if err != nil {
			return s.failed(ctx, src, calDAVReason(err))
		}
		states[cal] = st
		if stale || st == "" || st != a.sync[cal] {
			changed = append(changed, cal)
		}
	}
	if len(states) == 0 && gone > 0 {
		return s.failed(ctx, src, calDAVGone)
	}
	// Said on the card at every read while a chosen calendar is gone.
	var note string
	switch {
	case gone == 1:
		note = calDAVGone
	case gone > 1:
		note = fmt.Sprintf("%d das agendas escolhidas não existem mais no servidor; escolha as agendas de novo", gone)
	}
	stored, err := s.busySources(ctx, src.owner, src.professional, KindCalDAV)
	if err != nil {
		return err
	}
	// The sources no chosen calendar on the server holds any more: a calendar
	// gone or no longer chosen, and the one 'caldav' of before.
	keep := make([]string, 0, len(states))
	for cal := range states {
		keep = append(keep, calDAVSource(cal))
	}
	leftover := slices.ContainsFunc(slices.Collect(maps.Keys(stored)), func(source string) bool { return !slices.Contains(keep, source) })
	if len(changed) == 0 && !leftover {
		return s.reads().Worked(ctx, s.DB, src.id, now, note, nil)
	}
	// At most MaxInstances intervals across the account: the unchanged
	// calendars' stored ones count first.
	events := 0
	for cal := range states {
		if !slices.Contains(changed, cal) {
			events += stored[calDAVSource(cal)]
		}
	}
	windowDays = min(max(windowDays, 30), maxWindowDays)
	o := ParseOptions{Loc: tz.Load(zone), From: now.Add(-24 * time.Hour), Until: now.AddDate(0, 0, windowDays+1), AllDay: src.allDay == "busy", Titles: src.titles}
	found := make(map[string][]booking.Interval, len(changed))
	for _, cal := range changed {
		objs, err := c.Events(ctx, cal, o.From, o.Until)
		if err != nil {
			return s.failed(ctx, src, calDAVReason(err))
		}
		var items []booking.Interval
		for _, obj := range objs {
			if events+len(items) >= MaxInstances {
				break
			}
			body, err := encodeObject(obj)
			if err != nil {
				continue // an object no one can write back out takes no time
			}
			got, err := Parse(body, o)
			if err != nil {
				continue
			}
			items = append(items, got...)
		}
		items = items[:min(len(items), max(MaxInstances-events, 0))]
		found[cal] = items
		events += len(items)
	}
	// Every calendar read before any is written: a read that fails writes nothing.
	for _, cal := range changed {
		if _, err := s.Busy.ImportBusy(ctx, src.owner, src.professional, calDAVSource(cal), found[cal]); err != nil {
			return err
		}
	}
	if leftover {
		if err := s.clearBusy(ctx, src.owner, src.professional, KindCalDAV, keep...); err != nil {
			return err
		}
	}
	syncJSON, _ := json.Marshal(states)
	more := map[string]any{"sync": string(syncJSON), "events": events}
	if len(changed) == len(states) {
		more["last_parsed_at"] = now // the whole window expanded afresh
	}
	return s.reads().Worked(ctx, s.DB, src.id, now, note, more)
}

// calDAVGone says a chosen calendar is no longer on the server.
const calDAVGone = "uma das agendas escolhidas não existe mais no servidor; escolha as agendas de novo"

// calDAVReason says in pt-BR why a CalDAV account could not be read.
func calDAVReason(err error) string {
	var st *caldav.StatusError
	switch {
	case caldav.Auth(err):
		return "usuário ou senha de app recusados"
	case caldav.NotFound(err):
		return calDAVGone
	case errors.As(err, &st):
		return statusReason(st.Code)
	case strings.Contains(err.Error(), "caldav: ") && !isNetError(err):
		return "o servidor não respondeu como um servidor CalDAV"
	}
	return reason(err)
}

// CalDAVHandlers serve the CalDAV part of the calendars' card.
type CalDAVHandlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register adds the CalDAV routes.
func (h *CalDAVHandlers) Register(mux *http.ServeMux) {
	mux.Handle("POST /api/calendars/{id}/caldav/discover", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		var in CalDAVLogin
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		list, err := h.Svc.Discover(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), in)
		return httpx.Respond(w, http.StatusOK, map[string]any{"calendars": list}, err)
	})))
	sourceRoutes(mux, h.Auth, "/api/calendars/{id}/caldav", h.Svc.ConnectCalDAV, h.Svc.DisconnectCalDAV)
}

// encodeObject writes one calendar object back out as the text Parse reads.
func encodeObject(cal *ical.Calendar) ([]byte, error) {
	var b bytes.Buffer
	err := ical.NewEncoder(&b).Encode(cal)
	return b.Bytes(), err
}

// decodeObject reads a calendar text Agendei made.
func decodeObject(b []byte) (*ical.Calendar, error) {
	return ical.NewDecoder(bytes.NewReader(b)).Decode()
}

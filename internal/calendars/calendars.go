// Package calendars reads busy time from the calendars the owner's
// professionals already use (issue 42): today a calendar's private iCal
// address (Google's "Endereço secreto no formato iCal", iCloud's public
// link, Outlook's published ICS); CalDAV and Google next, on the same
// table, job and card. A background job reads each address on a schedule —
// never on a client's request — and hands the busy intervals to
// booking.Service.ImportBusy, which writes them under the owner's lock.
package calendars

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// KindICS is a calendar read from its iCal address; it names the source of
// its busy time too (busy_imported.source).
const KindICS = "ics"

// JobRead is the job that reads one calendar.
const JobRead = "calendar_read"

// Keep is how long a failing calendar's last busy time stays, when the
// owner keeps it ("keep"): then it is dropped, and the time offered again.
const Keep = 24 * time.Hour

// Importer writes a professional's busy time (booking.Service).
type Importer interface {
	ImportBusy(ctx context.Context, ownerID, professionalID, source string, items []booking.Interval) (booking.Imported, error)
}

// Service keeps the owners' calendar addresses and reads them.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
	Box   *secretbox.Box
	Queue *jobs.Queue
	Busy  Importer
	Guard connect.Guard
	// Every is how often each calendar is read (AGENDEI_CALENDAR_READ_EVERY).
	Every time.Duration
	// Fetch bounds one read; zero: DefaultFetch.
	Fetch connect.Fetch
	Log   *slog.Logger
	// Writers write appointments into calendars, by source kind (CalDAV's
	// is built in; writeback.go).
	Writers map[string]Writer
	// Google is the operator's Google OAuth client ("Conectar Google
	// Agenda", google.go); nil when not configured.
	Google *Google

	once   sync.Once
	client *http.Client
}

// DefaultFetch bounds one read of a calendar: 20 s, 5 redirects, 5 MB
// (a busy Google calendar of ten years is about 2 MB).
var DefaultFetch = connect.Fetch{Timeout: 20 * time.Second, Redirects: 5, MaxBody: 5 << 20}

// Source is a professional's calendar as the card shows it: never its
// address, only the address's host.
type Source struct {
	ProfessionalID   string `json:"professionalId"`
	ProfessionalName string `json:"professionalName"`
	Kind             string `json:"kind"`
	Host             string `json:"host"`
	// Account, Calendars and WriteCalendar are a CalDAV account's user, the
	// calendars read as busy and the one written to ('' for an address).
	Account       string   `json:"account"`
	Calendars     []string `json:"calendars"`
	WriteCalendar string   `json:"writeCalendar"`
	ShowTitles    bool     `json:"showTitles"`
	AllDay        string   `json:"allDay"`    // busy | ignore
	OnFailure     string   `json:"onFailure"` // keep (up to 24 h) | drop
	// Events are the busy intervals the last read found (in the window).
	Events int `json:"events"`
	// LastReadAt is the last read that worked; LastError and LastErrorAt
	// the last that did not ('' and null once one works again).
	LastReadAt   *time.Time `json:"lastReadAt"`
	LastError    string     `json:"lastError"`
	LastErrorAt  *time.Time `json:"lastErrorAt"`
	FailingSince *time.Time `json:"failingSince"`
	// Kept says a failing calendar's last busy time still counts (the
	// owner keeps it up to Keep); false while it works, or once dropped.
	Kept bool `json:"kept"`
	// WriteError is the last write-back that failed, until one works
	// (write_error.go); nil otherwise.
	WriteError *WriteError `json:"writeError"`
}

// Input is the card's form. An empty URL keeps the stored address.
type Input struct {
	URL        string `json:"url"`
	ShowTitles bool   `json:"showTitles"`
	AllDay     string `json:"allDay"`
	OnFailure  string `json:"onFailure"`
}

var (
	errURLRequired = httpx.Validation("Cole o endereço iCal da agenda.")
	errURL         = httpx.Validation("Endereço inválido: cole o endereço iCal completo, que começa com https:// (ou webcal://).")
	errChoice      = httpx.Validation("Escolha como tratar eventos de dia inteiro e o que fazer quando a agenda não puder ser lida.")
	errNotFound    = httpx.NewError(http.StatusNotFound, "not_found", "Profissional não encontrado.")
	errNoCalendar  = httpx.NewError(http.StatusNotFound, "not_found", "Nenhuma agenda conectada a este profissional.")
)

// The sealed fields of a source, each bound with the owner and the
// professional ("<owner>:calendars.<professional>.<field>", the contexts
// the rows were sealed with before the kit knew such connections).
const (
	fieldURL            = "url"             // an ICS source's address
	fieldCalDAVURL      = "caldav.url"      // a CalDAV server's address
	fieldCalDAVPassword = "caldav.password" // its app password
	fieldGoogle         = "google"          // Google's refresh token
)

// rows is the sources on the provider kit: one row per source, several
// per owner, each a professional's — read by owner and id, sealed by owner,
// professional and field.
func (s *Service) rows() *connect.Rows {
	return &connect.Rows{Box: s.Box, Name: "calendars", Table: "calendar_sources", Scope: "professional_id"}
}

// reads is the sources' health on the kit: the last read that worked, the
// last that did not and why, since when it fails.
func (s *Service) reads() *connect.Reads {
	return &connect.Reads{DB: s.DB, Clock: s.Clock, Table: "calendar_sources"}
}

func (s *Service) every() time.Duration {
	if s.Every <= 0 {
		return 5 * time.Minute
	}
	return s.Every
}

const sourceCols = `c.professional_id, p.name, c.kind, c.host, c.account, c.calendars, c.write_calendar, c.show_titles, c.all_day, c.on_failure, c.events, c.last_read_at, c.last_error, c.last_error_at, c.failing_since, c.write_error, c.write_error_at`

func scanSource(scan func(...any) error) (Source, error) {
	var src Source
	var read, errAt, failing sql.NullTime
	var cals, writeError string
	var writeErrorAt sql.NullTime
	err := scan(&src.ProfessionalID, &src.ProfessionalName, &src.Kind, &src.Host, &src.Account, &cals, &src.WriteCalendar, &src.ShowTitles, &src.AllDay, &src.OnFailure, &src.Events, &read, &src.LastError, &errAt, &failing,
		&writeError, &writeErrorAt)
	src.WriteError = writeErrorOf(writeError, writeErrorAt)
	src.LastReadAt, src.LastErrorAt, src.FailingSince = connect.TimeOf(read), connect.TimeOf(errAt), connect.TimeOf(failing)
	src.Calendars = []string{}
	_ = json.Unmarshal([]byte(cals), &src.Calendars)
	return src, err
}

// kept says whether a source's last busy time still counts while it fails.
func (s *Service) kept(src *Source) {
	src.Kept = src.FailingSince != nil && src.OnFailure == "keep" && s.Clock.Now().Sub(*src.FailingSince) < Keep && src.Events > 0
}

// List is the owner's calendars, in the team's order.
func (s *Service) List(ctx context.Context, ownerID string) ([]Source, error) {
	out := []Source{}
	err := db.Each(ctx, s.DB, `SELECT `+sourceCols+` FROM calendar_sources c JOIN professionals p ON p.id = c.professional_id
		WHERE c.user_id = ? ORDER BY p.created_at DESC, p.id`, []any{ownerID}, func(r *sql.Rows) error {
		src, err := scanSource(r.Scan)
		if err != nil {
			return err
		}
		s.kept(&src)
		out = append(out, src)
		return nil
	})
	return out, err
}

// oneKind is the professional's source of one kind, as the card shows it;
// none answers that kind's own 404.
func (s *Service) oneKind(ctx context.Context, q db.Querier, ownerID, professionalID, kind string) (*Source, error) {
	src, err := scanSource(q.QueryRowContext(ctx, `SELECT `+sourceCols+` FROM calendar_sources c JOIN professionals p ON p.id = c.professional_id
		WHERE c.user_id = ? AND c.professional_id = ? AND c.kind = ?`, ownerID, professionalID, kind).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, map[string]error{KindICS: errNoCalendar, KindCalDAV: errNoCalDAVAccount, KindGoogle: errNoGoogle}[kind]
	}
	if err != nil {
		return nil, err
	}
	s.kept(&src)
	return &src, nil
}

// Connect saves a professional's calendar address and choices, and reads
// it at once (in the background: the answer does not wait for it). A new
// address starts afresh: no validators, no error.
func (s *Service) Connect(ctx context.Context, ownerID, professionalID string, in Input) (*Source, error) {
	in.URL = strings.TrimSpace(in.URL)
	if in.AllDay == "" {
		in.AllDay = "busy"
	}
	if in.OnFailure == "" {
		in.OnFailure = "keep"
	}
	if (in.AllDay != "busy" && in.AllDay != "ignore") || (in.OnFailure != "keep" && in.OnFailure != "drop") {
		return nil, errChoice
	}
	var host, sealed string
	if in.URL != "" {
		u, err := connect.CheckURL(in.URL)
		if err != nil || utf8.RuneCountInString(in.URL) > 2000 {
			return nil, errURL
		}
		host = u.Hostname()
		if sealed, err = s.rows().Seal(ownerID, professionalID, fieldURL, u.String()); err != nil {
			return nil, err
		}
	}
	now := s.Clock.Now()
	var out *Source
	err := s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var found string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM professionals WHERE id = ? AND user_id = ?`, professionalID, ownerID).Scan(&found); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errNotFound
			}
			return err
		}
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM calendar_sources WHERE user_id = ? AND professional_id = ? AND kind = ?`, ownerID, professionalID, KindICS).Scan(&id)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if sealed == "" {
				return errURLRequired
			}
			id = uuid.NewString()
			_, err = tx.ExecContext(ctx, `INSERT INTO calendar_sources (id, user_id, professional_id, kind, url_sealed, host, show_titles, all_day, on_failure, next_read_at, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, ownerID, professionalID, KindICS, sealed, host, in.ShowTitles, in.AllDay, in.OnFailure, now, now, now)
		case err != nil:
			return err
		case sealed != "":
			// A new address starts afresh: nothing read yet, no error.
			if _, err = tx.ExecContext(ctx, `UPDATE calendar_sources SET url_sealed = ?, host = ?, show_titles = ?, all_day = ?, on_failure = ?, etag = '', last_modified = '',
				last_parsed_at = NULL, next_read_at = ?, updated_at = ? WHERE id = ?`,
				sealed, host, in.ShowTitles, in.AllDay, in.OnFailure, now, now, id); err == nil {
				err = s.reads().Restart(ctx, tx, id)
			}
		default:
			// The choices change what a read imports: read the whole file again.
			_, err = tx.ExecContext(ctx, `UPDATE calendar_sources SET show_titles = ?, all_day = ?, on_failure = ?, etag = '', last_modified = '', next_read_at = ?, updated_at = ? WHERE id = ?`,
				in.ShowTitles, in.AllDay, in.OnFailure, now, now, id)
		}
		if err != nil {
			return err
		}
		if err := s.Queue.Enqueue(ctx, tx, jobs.About{UserID: ownerID}, JobRead, readJob{ID: id}, now, 1); err != nil {
			return err
		}
		tx.OnCommit(s.Queue.Wake)
		out, err = s.oneKind(ctx, tx, ownerID, professionalID, KindICS)
		return err
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errNotFound
	}
	return out, err
}

// Disconnect forgets a professional's calendar and the busy time it gave.
func (s *Service) Disconnect(ctx context.Context, ownerID, professionalID string) error {
	if _, err := s.oneKind(ctx, s.DB, ownerID, professionalID, KindICS); err != nil {
		return err
	}
	if _, err := s.Busy.ImportBusy(ctx, ownerID, professionalID, KindICS, nil); err != nil {
		return err
	}
	return s.DB.OwnerExec(ctx, ownerID, errNoCalendar, `DELETE FROM calendar_sources WHERE user_id = ? AND professional_id = ? AND kind = ?`, ownerID, professionalID, KindICS)
}

// Handlers serve the calendars' card.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register adds the card's routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/calendars", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		list, err := h.Svc.List(r.Context(), auth.UserID(r.Context()))
		return httpx.Respond(w, http.StatusOK, map[string]any{"calendars": list, "google": h.Svc.Google != nil}, err)
	})))
	sourceRoutes(mux, h.Auth, "/api/calendars/{id}", h.Svc.Connect, h.Svc.Disconnect)
	h.RegisterGoogle(mux)
}

// sourceRoutes are one source kind's PUT (connect, replace, choose) and
// DELETE (disconnect) of a professional's row, {id} the professional: the
// kit's RowCard behind the owner's sign-in, the same for ICS, CalDAV and Google.
func sourceRoutes[In any](mux *http.ServeMux, a *auth.Handlers, path string,
	connectFn func(ctx context.Context, ownerID, professionalID string, in In) (*Source, error),
	disconnect func(ctx context.Context, ownerID, professionalID string) error) {
	connect.RowCard[In, *Source]{Connect: connectFn, Disconnect: disconnect}.Register(mux, path, a.RequireUser, auth.UserID)
}

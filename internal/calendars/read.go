package calendars

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/secretbox"
	"github.com/agendei/agendei/internal/platform/tz"
)

// readJob is the payload of JobRead.
type readJob struct {
	ID string `json:"id"`
}

// fullEvery is how often a read asks for the whole file even when the
// server could answer "not modified": the window of instances expanded
// moves with the days, so recurring events reach into it.
const fullEvery = 6 * time.Hour

// maxWindowDays bounds the window expanded ahead (the booking window).
const maxWindowDays = 366

// Register adds the reading job to the queue.
func (s *Service) Register() {
	s.Queue.Register(JobRead, func(ctx context.Context, payload []byte) error {
		var p readJob
		if err := json.Unmarshal(payload, &p); err != nil {
			return nil // a payload no one can read is dropped, not retried
		}
		return s.Read(ctx, p.ID)
	})
}

// Run queues the due reads until ctx ends; the queue runs them (once
// across instances).
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(min(s.every()/5, time.Minute))
	defer t.Stop()
	for {
		if _, err := s.QueueDue(ctx); err != nil && ctx.Err() == nil && s.Log != nil {
			s.Log.Warn("calendars: queue due reads", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// QueueDue queues a read of every calendar whose next read is due, and
// moves its next read on by Every: an instance that finds it due first
// queues it, others find it done.
func (s *Service) QueueDue(ctx context.Context) (int, error) {
	now := s.Clock.Now()
	type due struct{ id, owner string }
	var list []due
	err := db.Each(ctx, s.DB, `SELECT id, user_id FROM calendar_sources WHERE next_read_at <= ? ORDER BY next_read_at LIMIT 1000`, []any{now}, func(r *sql.Rows) error {
		var d due
		list = append(list, d)
		return r.Scan(&list[len(list)-1].id, &list[len(list)-1].owner)
	})
	if err != nil {
		return 0, err
	}
	queued := 0
	for _, d := range list {
		err := s.DB.InTx(ctx, func(tx *db.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE calendar_sources SET next_read_at = ? WHERE id = ? AND next_read_at <= ?`, now.Add(s.every()), d.id, now)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return nil
			}
			queued++
			return s.Queue.Enqueue(ctx, tx, jobs.About{UserID: d.owner}, JobRead, readJob{ID: d.id}, now, 1)
		})
		if err != nil {
			return queued, err
		}
	}
	if queued > 0 {
		s.Queue.Wake()
	}
	return queued, nil
}

// source is a calendar as the reader needs it.
type source struct {
	kind                                        string // KindICS when ''
	id, owner, professional, etag, lastModified string
	parsed                                      sql.NullTime
	failing                                     sql.NullTime
	titles                                      bool
	allDay, onFailure                           string
}

// Read reads one calendar: a conditional GET (ETag, Last-Modified), and
// on a new file its busy intervals replace the professional's from this
// calendar. "Not modified" writes no busy time. A failed read records why
// in pt-BR and keeps the last busy time for up to Keep — or drops it at
// once, by the owner's choice.
func (s *Service) Read(ctx context.Context, id string) error {
	// Each kind reads its own way: CalDAV and Google here, an address below.
	var kind string
	if err := s.DB.QueryRowContext(ctx, `SELECT kind FROM calendar_sources WHERE id = ?`, id).Scan(&kind); err == nil {
		switch kind {
		case KindCalDAV:
			return s.readCalDAV(ctx, id)
		case KindGoogle:
			_, err := s.readGoogle(ctx, id)
			return err
		}
	}
	src := source{kind: KindICS}
	row, err := s.rows().Job(ctx, s.DB, id, []connect.Field{{Name: fieldURL, Column: "url_sealed", Secret: true}},
		connect.Col{Name: "etag", Into: &src.etag}, connect.Col{Name: "last_modified", Into: &src.lastModified}, connect.Col{Name: "last_parsed_at", Into: &src.parsed},
		connect.Col{Name: "failing_since", Into: &src.failing}, connect.Col{Name: "show_titles", Into: &src.titles}, connect.Col{Name: "all_day", Into: &src.allDay},
		connect.Col{Name: "on_failure", Into: &src.onFailure})
	if row == nil {
		return err // nil: disconnected meanwhile
	}
	src.id, src.owner, src.professional = row.ID, row.Owner, row.Scope
	if errors.Is(err, secretbox.ErrOpen) {
		return s.failed(ctx, src, "não foi possível abrir o endereço guardado; cole-o de novo")
	}
	if err != nil {
		return err
	}
	address := row.Values[fieldURL]
	var zone string
	var windowDays int
	if err := s.DB.QueryRowContext(ctx, `SELECT time_zone, booking_window_days FROM profiles WHERE id = ?`, src.owner).Scan(&zone, &windowDays); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	}
	now := s.Clock.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return s.failed(ctx, src, "endereço inválido; cole-o de novo")
	}
	req.Header.Set("Accept", "text/calendar, */*;q=0.5")
	req.Header.Set("User-Agent", "Agendei (busy times import)")
	if src.parsed.Valid && now.Sub(src.parsed.Time) < fullEvery {
		if src.etag != "" {
			req.Header.Set("If-None-Match", src.etag)
		}
		if src.lastModified != "" {
			req.Header.Set("If-Modified-Since", src.lastModified)
		}
	}
	res, err := s.httpClient().Do(req)
	if err != nil {
		return s.failed(ctx, src, reason(err))
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusNotModified {
		return s.reads().Worked(ctx, s.DB, src.id, now, "", nil)
	}
	if res.StatusCode != http.StatusOK {
		return s.failed(ctx, src, statusReason(res.StatusCode))
	}
	body, err := connect.ReadBody(res.Body, s.fetch().MaxBody)
	if err != nil {
		return s.failed(ctx, src, reason(err))
	}
	loc := tz.Load(zone)
	windowDays = min(max(windowDays, 30), maxWindowDays)
	items, err := Parse(body, ParseOptions{Loc: loc, From: now.Add(-24 * time.Hour), Until: now.AddDate(0, 0, windowDays+1), AllDay: src.allDay == "busy", Titles: src.titles})
	if err != nil {
		return s.failed(ctx, src, "o endereço não tem uma agenda no formato iCal (.ics)")
	}
	if _, err := s.Busy.ImportBusy(ctx, src.owner, src.professional, KindICS, items); err != nil {
		return err
	}
	return s.reads().Worked(ctx, s.DB, src.id, now, "", map[string]any{
		"etag": res.Header.Get("ETag"), "last_modified": res.Header.Get("Last-Modified"), "last_parsed_at": now, "events": len(items)})
}

// failed records a failed read, and drops the calendar's busy time when
// the owner asked to, or once it has failed for Keep.
func (s *Service) failed(ctx context.Context, src source, why string) error {
	if s.Log != nil {
		s.Log.Info("calendars: read failed", "calendar", src.id, "reason", why) // never the address: it is a secret
	}
	since, err := s.reads().Failed(ctx, s.DB, src.id, why)
	if err != nil {
		return err
	}
	now := s.Clock.Now()
	if src.onFailure == "drop" || now.Sub(since) >= Keep {
		if err := s.clearBusy(ctx, src.owner, src.professional, cmp.Or(src.kind, KindICS)); err != nil {
			return err
		}
		_, err := s.DB.ExecContext(ctx, `UPDATE calendar_sources SET events = 0 WHERE id = ?`, src.id)
		return err
	}
	return nil
}

func (s *Service) fetch() connect.Fetch {
	if s.Fetch.Timeout == 0 {
		return DefaultFetch
	}
	return s.Fetch
}

func (s *Service) httpClient() *http.Client {
	s.once.Do(func() { s.client = s.Guard.Client(s.fetch()) })
	return s.client
}

// reason says in pt-BR why a calendar could not be read, for the card:
// "Não conseguimos ler sua agenda às 14:05: {reason}".
func reason(err error) string {
	var dns *net.DNSError
	var netErr net.Error
	var cert *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	switch {
	case connect.Refused(err):
		return "endereço não permitido (aponta para uma rede interna)"
	case errors.As(err, &dns):
		return "endereço não encontrado"
	case errors.Is(err, connect.ErrTooManyRedirects):
		return "o endereço redireciona vezes demais"
	case errors.Is(err, connect.ErrScheme):
		return "o endereço redireciona para um lugar que não é http nem https"
	case errors.Is(err, connect.ErrTooLarge):
		return fmt.Sprintf("a agenda passa do tamanho máximo (%d MB)", DefaultFetch.MaxBody>>20)
	case errors.As(err, &cert), errors.As(err, &unknown), errors.As(err, &host):
		return "o certificado de segurança do servidor não é válido"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "o servidor da agenda recusou a conexão"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "a agenda demorou demais para responder"
	default:
		return "não foi possível conectar ao servidor da agenda"
	}
}

func statusReason(code int) string {
	switch {
	case code == http.StatusNotFound || code == http.StatusGone:
		return "endereço não encontrado (a agenda pode ter sido removida, ou o endereço secreto redefinido)"
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return "acesso negado: use o endereço secreto (ou público) da agenda"
	case code >= 500:
		return fmt.Sprintf("o servidor da agenda está com problemas (HTTP %d)", code)
	default:
		return fmt.Sprintf("resposta inesperada do servidor da agenda (HTTP %d)", code)
	}
}

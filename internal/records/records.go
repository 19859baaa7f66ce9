// Package records is the health record (prontuário, issue 43 §1–2): per
// client and professional, entries written after a session, append-only
// (a correction is a new version, signed, with its reason), sealed at rest
// with the owner's own data key, and every read and write in a log no one
// edits. Only the professional who keeps a record reads it; the practice's
// owner does not, unless the owner is that professional.
//
// CFP Resolução 001/2009 (art. 1–2: a record of every service with
// identification, demand, evolution, closure or referral; art. 4: at least 5
// years, in secrecy) and Lei 13.787/2018 (art. 6: health records may be
// eliminated 20 years after the last entry) are why nothing here deletes or
// rewrites an entry.
package records

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
	"github.com/agendei/agendei/internal/platform/secretbox"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/team"
)

// Kinds of entry: the prontuário may be shown to the client (CFP 001/2009
// art. 5 II); the registro sigiloso (and test material) only to its author.
const (
	KindRecord = "prontuario"
	KindSecret = "sigiloso"
)

// Templates an entry starts from; "livre" has none.
var templates = map[string]bool{"anamnese": true, "evolucao": true, "encerramento": true, "livre": true}

const (
	maxBody   = 20_000 // characters of one entry
	maxReason = 500
)

var (
	errNotFound     = httpx.NewError(http.StatusNotFound, "not_found", "Prontuário não encontrado.")
	errClient       = httpx.NewError(http.StatusNotFound, "not_found", "Cliente não encontrado.")
	errNoSelf       = httpx.NewError(http.StatusForbidden, "not_a_professional", "Para escrever prontuários, indique em Profissionais qual profissional é você.")
	errKind         = httpx.Validation("Escolha o tipo de anotação: prontuário ou registro sigiloso.")
	errTemplate     = httpx.Validation("Modelo de anotação desconhecido.")
	errBody         = httpx.Validation("Escreva a anotação (até 20.000 caracteres).")
	errReason       = httpx.Validation("Diga o motivo da correção (até 500 caracteres).")
	errSessionDate  = httpx.Validation("Informe a data do atendimento.")
	errFutureDate   = httpx.Validation("A data do atendimento não pode estar no futuro.")
	errNotStarted   = httpx.Validation("O prontuário de um atendimento abre depois que ele começa.")
	errAppointment  = httpx.NewError(http.StatusNotFound, "not_found", "Agendamento não encontrado.")
	errTemplateBody = httpx.Validation("O modelo deve ter até 5.000 caracteres.")
)

// Service keeps the records.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
	Box   *secretbox.Box // the server's key: it seals each owner's data key
	Links LinkFinder     // a client's private link (booking)
	Files FileStore      // where attached files go, sealed
	// Limiter bounds the uploads of files.
	Limiter *ratelimit.Limiter
}

// accountOf is the signed-in account a limit counts.
func accountOf(ctx context.Context) string { return auth.Account(ctx) }

// actor is who writes or reads: the signed-in account and the professional
// of the team it is (for the owner, the one they said is them).
type actor struct {
	owner, account, professional, name, council string
}

func (s *Service) actor(ctx context.Context) (actor, error) {
	a := actor{owner: auth.UserID(ctx), account: auth.Account(ctx), professional: auth.Professional(ctx)}
	if a.professional == "" {
		var self sql.NullString
		if err := s.DB.QueryRowContext(ctx, `SELECT self_professional_id FROM profiles WHERE id = ?`, a.owner).Scan(&self); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return a, err
		}
		if !self.Valid || self.String == "" {
			return a, errNoSelf
		}
		a.professional = self.String
	}
	var council, uf, number string
	err := s.DB.QueryRowContext(ctx, `SELECT name, council, council_uf, council_number FROM professionals WHERE id = ? AND user_id = ?`, a.professional, a.owner).
		Scan(&a.name, &council, &uf, &number)
	if errors.Is(err, sql.ErrNoRows) {
		return a, errNoSelf
	}
	a.council = team.CouncilLabel(council, uf, number)
	return a, err
}

// keeper is the acting professional on a route that names a record: an
// owner who is no professional keeps none (404, as another's record would).
func (s *Service) keeper(ctx context.Context) (actor, error) {
	a, err := s.actor(ctx)
	if errors.Is(err, errNoSelf) {
		err = errNotFound
	}
	return a, err
}

// keyOf opens the owner's data key, making it on first use. The key never
// leaves the process unsealed.
func (s *Service) keyOf(ctx context.Context, q db.Querier, owner string) (*secretbox.Box, error) {
	var sealed string
	err := q.QueryRowContext(ctx, `SELECT sealed_key FROM record_keys WHERE owner_id = ?`, owner).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		raw := make([]byte, secretbox.KeySize)
		if _, err := rand.Read(raw); err != nil {
			return nil, err
		}
		if sealed, err = s.Box.Seal(base64.StdEncoding.EncodeToString(raw), "record-key:"+owner); err != nil {
			return nil, err
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO record_keys (owner_id, sealed_key, created_at) VALUES (?, ?, ?) ON CONFLICT (owner_id) DO NOTHING`,
			owner, sealed, s.Clock.Now()); err != nil {
			return nil, err
		}
		err = q.QueryRowContext(ctx, `SELECT sealed_key FROM record_keys WHERE owner_id = ?`, owner).Scan(&sealed)
	}
	if err != nil {
		return nil, err
	}
	encoded, err := s.Box.Open(sealed, "record-key:"+owner)
	if err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, err
	}
	return secretbox.New(raw)
}

// Identity is the client's identification as the record keeps it (sealed):
// what the agenda knew of them when the record began.
type Identity struct {
	Name  string `json:"name"`
	Phone string `json:"phone"`
	Email string `json:"email"`
}

// Entry is one version of an entry, opened for its reader.
type Entry struct {
	ID            string    `json:"id"`      // this version
	EntryID       string    `json:"entryId"` // the entry
	Version       int       `json:"version"`
	Kind          string    `json:"kind"`
	Template      string    `json:"template"`
	SessionDate   string    `json:"sessionDate"`
	AppointmentID string    `json:"appointmentId,omitempty"`
	Body          string    `json:"body"`
	Reason        string    `json:"reason,omitempty"`
	AuthorName    string    `json:"authorName"`
	AuthorCouncil string    `json:"authorCouncil"`
	CreatedAt     time.Time `json:"createdAt"`
	// Signature is how the history shows who signed it and when, in the
	// practice's time: "assinado por Fulana, CRP 06/12345, em 12/03/2027 14:02".
	Signature string `json:"signature"`
	// Cosign is a supervisor's co-signature of this version, asked or given.
	Cosign *Cosign `json:"cosign,omitempty"`
}

// Record is a client's record as its professional reads it: every entry
// with its versions, newest version first within an entry, entries by
// session date, newest first.
type Record struct {
	ID          string     `json:"id"`
	Client      Identity   `json:"client"`
	ClientCopy  bool       `json:"clientCopy"`
	CreatedAt   time.Time  `json:"createdAt"`
	LastEntryAt *time.Time `json:"lastEntryAt,omitempty"`
	Entries     [][]Entry  `json:"entries"`
	Documents   []Document `json:"documents"`
	Shares      []Share    `json:"shares"` // the summaries its author shows the owner or a colleague
	Files       []File     `json:"files"`
	// TimeZone is the practice's zone (IANA), in which its signatures are
	// written and its screens show the times of the log and of shares.
	TimeZone string `json:"timeZone"`
}

// clientOf is the client a reference names (an appointment id or a client
// key) and whether the acting professional has seen them: a record is kept
// only of one's own clients.
func (s *Service) clientOf(ctx context.Context, a actor, ref string) (string, Identity, error) {
	key, err := booking.ClientKeyOf(ctx, s.DB, a.owner, ref)
	if err != nil {
		return "", Identity{}, err
	}
	var id Identity
	err = s.DB.QueryRowContext(ctx, `SELECT client_name, client_phone, client_email FROM appointments WHERE user_id = ? AND client_key = ? AND professional_id = ?
		ORDER BY appointment_date DESC, appointment_time DESC, created_at DESC LIMIT 1`, a.owner, key, a.professional).Scan(&id.Name, &id.Phone, &id.Email)
	if errors.Is(err, sql.ErrNoRows) || key == "" {
		return "", Identity{}, errClient
	}
	return key, id, err
}

// Get is the acting professional's record of a client (nil when there is
// none yet). The read is logged.
func (s *Service) Get(ctx context.Context, clientRef string) (*Record, error) {
	a, err := s.actor(ctx)
	if err != nil {
		return nil, err
	}
	key, _, err := s.clientOf(ctx, a, clientRef)
	if err != nil {
		return nil, err
	}
	var rec *Record
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM records WHERE owner_id = ? AND professional_id = ? AND client_key = ?`, a.owner, a.professional, key).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if rec, err = s.read(ctx, tx, a, id); err != nil {
			return err
		}
		return s.log(ctx, tx, a, id, "", "read")
	})
	return rec, err
}

func (s *Service) read(ctx context.Context, q db.Querier, a actor, id string) (*Record, error) {
	box, err := s.keyOf(ctx, q, a.owner)
	if err != nil {
		return nil, err
	}
	loc, err := zoneOf(ctx, q, a.owner)
	if err != nil {
		return nil, err
	}
	rec := Record{TimeZone: loc.String()}
	var identity string
	var last sql.NullTime
	err = q.QueryRowContext(ctx, `SELECT id, identity, client_copy, created_at, last_entry_at FROM records WHERE id = ? AND owner_id = ? AND professional_id = ?`,
		id, a.owner, a.professional).Scan(&rec.ID, &identity, &rec.ClientCopy, &rec.CreatedAt, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	rec.CreatedAt = rec.CreatedAt.UTC()
	if last.Valid {
		t := last.Time.UTC()
		rec.LastEntryAt = &t
	}
	plain, err := box.Open(identity, "record:"+rec.ID+":identity")
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(plain), &rec.Client); err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT id, entry_id, version, kind, template, session_date, COALESCE(appointment_id, ''), body, reason, author_name, author_council, created_at
		FROM record_entries WHERE record_id = ? AND owner_id = ? AND (kind = 'prontuario' OR author_professional_id = ?)
		ORDER BY session_date DESC, entry_id, version DESC`, rec.ID, a.owner, a.professional)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	rec.Entries = [][]Entry{}
	index := map[string]int{}
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.ID, &e.EntryID, &e.Version, &e.Kind, &e.Template, &e.SessionDate, &e.AppointmentID, &e.Body, &e.Reason, &e.AuthorName, &e.AuthorCouncil, &e.CreatedAt); err != nil {
			return nil, err
		}
		if e.Body, err = box.Open(e.Body, "record:"+rec.ID+":entry:"+e.ID); err != nil {
			return nil, err
		}
		if e.Reason != "" {
			if e.Reason, err = box.Open(e.Reason, "record:"+rec.ID+":reason:"+e.ID); err != nil {
				return nil, err
			}
		}
		e.CreatedAt = e.CreatedAt.UTC()
		e.Signature = signature(e.AuthorName, e.AuthorCouncil, e.CreatedAt.In(loc))
		i, ok := index[e.EntryID]
		if !ok {
			i = len(rec.Entries)
			index[e.EntryID] = i
			rec.Entries = append(rec.Entries, nil)
		}
		rec.Entries[i] = append(rec.Entries[i], e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if err := s.files(ctx, q, box, loc, &rec); err != nil {
		return nil, err
	}
	return &rec, s.extras(ctx, q, box, loc, &rec)
}

// zoneOf is the practice's time zone, in which signatures are written.
func zoneOf(ctx context.Context, q db.Querier, owner string) (*time.Location, error) {
	return profiles.Zone(ctx, q, owner)
}

// signature is an entry's "assinado por Fulana, CRP 06/12345, em 12/03/2027 14:02".
func signature(name, council string, at time.Time) string {
	who := name
	if council != "" {
		who += ", " + council
	}
	return "assinado por " + who + ", em " + at.Format("02/01/2006 15:04")
}

// EntryInput is a new entry.
type EntryInput struct {
	Client        string `json:"client"` // the client's reference (an appointment id or client key)
	AppointmentID string `json:"appointmentId"`
	Kind          string `json:"kind"`
	Template      string `json:"template"`
	SessionDate   string `json:"sessionDate"`
	Body          string `json:"body"`
}

// Write adds an entry to the acting professional's record of the client,
// beginning the record on its first entry.
func (s *Service) Write(ctx context.Context, in EntryInput) (*Record, error) {
	a, err := s.actor(ctx)
	if err != nil {
		return nil, err
	}
	body := strings.TrimSpace(in.Body)
	switch {
	case in.Kind != KindRecord && in.Kind != KindSecret:
		return nil, errKind
	case !templates[in.Template]:
		return nil, errTemplate
	case body == "" || utf8.RuneCountInString(body) > maxBody:
		return nil, errBody
	}
	key, identity, err := s.clientOf(ctx, a, in.Client)
	if err != nil {
		return nil, err
	}
	loc, err := profiles.Zone(ctx, s.DB, a.owner)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	date := in.SessionDate
	if in.AppointmentID != "" {
		// Opened from the appointment: its date, once it has begun.
		var start, time_ string
		err := s.DB.QueryRowContext(ctx, `SELECT appointment_date, appointment_time FROM appointments WHERE id = ? AND user_id = ? AND professional_id = ? AND client_key = ?`,
			in.AppointmentID, a.owner, a.professional, key).Scan(&start, &time_)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errAppointment
		}
		if err != nil {
			return nil, err
		}
		if start+" "+time_ > now.In(loc).Format("2006-01-02 15:04") {
			return nil, errNotStarted
		}
		date = start
	}
	if _, err := time.Parse("2006-01-02", date); err != nil {
		return nil, errSessionDate
	}
	if date > now.In(loc).Format("2006-01-02") {
		return nil, errFutureDate
	}
	var rec *Record
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		box, err := s.keyOf(ctx, tx, a.owner)
		if err != nil {
			return err
		}
		var id string
		err = tx.QueryRowContext(ctx, `SELECT id FROM records WHERE owner_id = ? AND professional_id = ? AND client_key = ?`, a.owner, a.professional, key).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			id = uuid.NewString()
			plain, _ := json.Marshal(identity)
			sealed, err := box.Seal(string(plain), "record:"+id+":identity")
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO records (id, owner_id, professional_id, client_key, identity, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				id, a.owner, a.professional, key, sealed, now); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		entry := uuid.NewString()
		if err := s.insert(ctx, tx, box, a, id, entry, 1, in.Kind, in.Template, date, in.AppointmentID, body, "", now); err != nil {
			return err
		}
		if err := s.log(ctx, tx, a, id, entry, "write"); err != nil {
			return err
		}
		rec, err = s.read(ctx, tx, a, id)
		return err
	})
	return rec, err
}

func (s *Service) insert(ctx context.Context, tx *db.Tx, box *secretbox.Box, a actor, record, entry string, version int, kind, template, date, appointment, body, reason string, now time.Time) error {
	id := uuid.NewString()
	sealed, err := box.Seal(body, "record:"+record+":entry:"+id)
	if err != nil {
		return err
	}
	sealedReason := ""
	if reason != "" {
		if sealedReason, err = box.Seal(reason, "record:"+record+":reason:"+id); err != nil {
			return err
		}
	}
	var appt any
	if appointment != "" {
		appt = appointment
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO record_entries (id, record_id, owner_id, entry_id, version, kind, template, session_date, appointment_id, body, reason,
		author_account, author_professional_id, author_name, author_council, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, record, a.owner, entry, version, kind, template, date, appt, sealed, sealedReason, a.account, a.professional, a.name, a.council, now); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE records SET last_entry_at = ? WHERE id = ?`, now, record)
	return err
}

// CorrectionInput is a correction of an entry: its new text and why.
type CorrectionInput struct {
	Body   string `json:"body"`
	Reason string `json:"reason"`
}

// Correct adds a new version of an entry the acting professional keeps;
// the earlier versions stay, signed, in its history.
func (s *Service) Correct(ctx context.Context, entryID string, in CorrectionInput) (*Record, error) {
	a, err := s.keeper(ctx)
	if err != nil {
		return nil, err
	}
	body, reason := strings.TrimSpace(in.Body), strings.TrimSpace(in.Reason)
	switch {
	case body == "" || utf8.RuneCountInString(body) > maxBody:
		return nil, errBody
	case reason == "" || utf8.RuneCountInString(reason) > maxReason:
		return nil, errReason
	}
	var rec *Record
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		var record, kind, template, date, appointment string
		var version int
		err := tx.QueryRowContext(ctx, `SELECT e.record_id, e.kind, e.template, e.session_date, COALESCE(e.appointment_id, ''), e.version FROM record_entries e
			JOIN records r ON r.id = e.record_id
			WHERE e.entry_id = ? AND e.owner_id = ? AND r.professional_id = ? AND (e.kind = 'prontuario' OR e.author_professional_id = ?)
			ORDER BY e.version DESC LIMIT 1`, entryID, a.owner, a.professional, a.professional).Scan(&record, &kind, &template, &date, &appointment, &version)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		box, err := s.keyOf(ctx, tx, a.owner)
		if err != nil {
			return err
		}
		if err := s.insert(ctx, tx, box, a, record, entryID, version+1, kind, template, date, appointment, body, reason, s.Clock.Now()); err != nil {
			return err
		}
		if err := s.log(ctx, tx, a, record, entryID, "correct"); err != nil {
			return err
		}
		rec, err = s.read(ctx, tx, a, record)
		return err
	})
	return rec, err
}

// LogLine is one access to a record, as its author sees the log.
type LogLine struct {
	At      time.Time `json:"at"`
	Who     string    `json:"who"`
	Action  string    `json:"action"`
	EntryID string    `json:"entryId,omitempty"`
}

// Log is the record's access log, newest first, for the professional who
// keeps it. Reading the log is not itself logged (it reveals no note).
func (s *Service) Log(ctx context.Context, recordID string) ([]LogLine, *time.Location, error) {
	a, err := s.keeper(ctx)
	if err != nil {
		return nil, nil, err
	}
	loc, err := zoneOf(ctx, s.DB, a.owner)
	if err != nil {
		return nil, nil, err
	}
	var ok bool
	if err := s.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records WHERE id = ? AND owner_id = ? AND professional_id = ?)`, recordID, a.owner, a.professional).Scan(&ok); err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, errNotFound
	}
	out := []LogLine{}
	err = db.Each(ctx, s.DB, `SELECT at, actor_name, action, entry_id FROM record_log WHERE record_id = ? AND owner_id = ? ORDER BY at DESC, id DESC LIMIT 500`,
		[]any{recordID, a.owner}, func(r *sql.Rows) error {
			var l LogLine
			if err := r.Scan(&l.At, &l.Who, &l.Action, &l.EntryID); err != nil {
				return err
			}
			l.At = l.At.UTC()
			out = append(out, l)
			return nil
		})
	return out, loc, err
}

func (s *Service) log(ctx context.Context, tx *db.Tx, a actor, record, entry, action string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO record_log (id, owner_id, record_id, entry_id, actor_account, actor_name, action, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		uuid.NewString(), a.owner, record, entry, a.account, a.name, action, s.Clock.Now())
	return err
}

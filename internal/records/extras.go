package records

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// A record's documents issued, the summary its author shares, and a
// supervisor's co-signature (issue 43 §1).

var (
	errDocument   = httpx.Validation("Informe a data (até hoje), a finalidade (até 300 caracteres) e o destinatário (até 200 caracteres) do documento.")
	errSummary    = httpx.Validation("O resumo compartilhado deve ter até 5.000 caracteres.")
	errReader     = httpx.Validation("Compartilhe com o titular da agenda ou com um profissional da equipe.")
	errSupervisor = httpx.Validation("Escolha outro profissional da equipe para coassinar.")
	errSigned     = httpx.NewError(http.StatusConflict, "already_signed", "Esta anotação já foi coassinada.")
)

// Document is one document issued, in the record's register.
type Document struct {
	ID        string `json:"id"`
	IssuedOn  string `json:"issuedOn"`
	Purpose   string `json:"purpose"`
	Recipient string `json:"recipient"`
	Signature string `json:"signature"`
}

// Share is a summary the record's author shows a reader: "owner" (the
// practice's owner) or a colleague's professional id.
type Share struct {
	Reader    string    `json:"reader"`
	Summary   string    `json:"summary"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Cosign is a supervisor's co-signature of a version: asked, then signed.
type Cosign struct {
	SupervisorID string `json:"supervisorId"`
	Signed       bool   `json:"signed"`
	Signature    string `json:"signature,omitempty"` // "coassinado por …, em …"
}

// extras fills a record's documents, shares and co-signatures (under the
// same data key and zone as its entries).
func (s *Service) extras(ctx context.Context, q db.Querier, box *secretbox.Box, loc *time.Location, rec *Record) error {
	rec.Documents, rec.Shares = []Document{}, []Share{}
	err := db.Each(ctx, q, `SELECT id, issued_on, purpose, recipient, author_name, author_council, created_at FROM record_documents WHERE record_id = ? ORDER BY issued_on DESC, created_at DESC`,
		[]any{rec.ID}, func(r *sql.Rows) error {
			var d Document
			var name, council string
			var at time.Time
			if err := r.Scan(&d.ID, &d.IssuedOn, &d.Purpose, &d.Recipient, &name, &council, &at); err != nil {
				return err
			}
			var err error
			if d.Purpose, err = box.Open(d.Purpose, "record:"+rec.ID+":document-purpose:"+d.ID); err != nil {
				return err
			}
			if d.Recipient, err = box.Open(d.Recipient, "record:"+rec.ID+":document-recipient:"+d.ID); err != nil {
				return err
			}
			d.Signature = signature(name, council, at.In(loc))
			rec.Documents = append(rec.Documents, d)
			return nil
		})
	if err != nil {
		return err
	}
	err = db.Each(ctx, q, `SELECT reader, summary, updated_at FROM record_shares WHERE record_id = ? ORDER BY reader`, []any{rec.ID}, func(r *sql.Rows) error {
		var sh Share
		if err := r.Scan(&sh.Reader, &sh.Summary, &sh.UpdatedAt); err != nil {
			return err
		}
		var err error
		if sh.Summary, err = box.Open(sh.Summary, "record:"+rec.ID+":summary:"+sh.Reader); err != nil {
			return err
		}
		sh.UpdatedAt = sh.UpdatedAt.UTC()
		rec.Shares = append(rec.Shares, sh)
		return nil
	})
	if err != nil {
		return err
	}
	cosigns := map[string]*Cosign{}
	err = db.Each(ctx, q, `SELECT version_id, supervisor_id, signed_at, signer_name, signer_council FROM record_cosigns WHERE record_id = ?`, []any{rec.ID}, func(r *sql.Rows) error {
		var id string
		var c Cosign
		var at sql.NullTime
		var name, council string
		if err := r.Scan(&id, &c.SupervisorID, &at, &name, &council); err != nil {
			return err
		}
		if at.Valid {
			c.Signed = true
			c.Signature = "co" + signature(name, council, at.Time.In(loc))
		}
		cosigns[id] = &c
		return nil
	})
	for i := range rec.Entries {
		for j := range rec.Entries[i] {
			rec.Entries[i][j].Cosign = cosigns[rec.Entries[i][j].ID]
		}
	}
	return err
}

// DocumentInput is a document issued.
type DocumentInput struct {
	IssuedOn  string `json:"issuedOn"`
	Purpose   string `json:"purpose"`
	Recipient string `json:"recipient"`
}

// AddDocument registers a document issued from the record.
func (s *Service) AddDocument(ctx context.Context, id string, in DocumentInput) (*Record, error) {
	purpose, recipient := strings.TrimSpace(in.Purpose), strings.TrimSpace(in.Recipient)
	if _, err := time.Parse("2006-01-02", in.IssuedOn); err != nil || purpose == "" || recipient == "" ||
		utf8.RuneCountInString(purpose) > 300 || utf8.RuneCountInString(recipient) > 200 || in.IssuedOn > s.Clock.Now().Format("2006-01-02") {
		return nil, errDocument
	}
	return s.onRecord(ctx, id, "document", func(tx *db.Tx, a actor, box *secretbox.Box) error {
		doc := uuid.NewString()
		sp, err := box.Seal(purpose, "record:"+id+":document-purpose:"+doc)
		if err != nil {
			return err
		}
		sr, err := box.Seal(recipient, "record:"+id+":document-recipient:"+doc)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO record_documents (id, record_id, owner_id, issued_on, purpose, recipient, author_account, author_name, author_council, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, doc, id, a.owner, in.IssuedOn, sp, sr, a.account, a.name, a.council, s.Clock.Now())
		return err
	})
}

// Share writes (or, empty, withdraws) the summary a reader of the practice
// may read: the owner ("owner") or a colleague.
func (s *Service) Share(ctx context.Context, id, reader, summary string) (*Record, error) {
	summary = strings.TrimSpace(summary)
	if utf8.RuneCountInString(summary) > 5000 {
		return nil, errSummary
	}
	action := "share"
	if summary == "" {
		action = "unshare"
	}
	return s.onRecord(ctx, id, action, func(tx *db.Tx, a actor, box *secretbox.Box) error {
		if reader != "owner" {
			var ok bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM professionals WHERE id = ? AND user_id = ?)`, reader, a.owner).Scan(&ok); err != nil {
				return err
			}
			if !ok || reader == a.professional {
				return errReader
			}
		}
		if summary == "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM record_shares WHERE record_id = ? AND reader = ?`, id, reader)
			return err
		}
		sealed, err := box.Seal(summary, "record:"+id+":summary:"+reader)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO record_shares (record_id, owner_id, reader, summary, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (record_id, reader) DO UPDATE SET summary = excluded.summary, updated_at = excluded.updated_at`, id, a.owner, reader, sealed, s.Clock.Now())
		return err
	})
}

// RequestCosign asks a supervisor of the team to co-sign one version of an
// entry the acting professional wrote; the supervisor then reads that
// version (and only it) to sign.
func (s *Service) RequestCosign(ctx context.Context, versionID, supervisorID string) (*Record, error) {
	var record string
	a, err := s.keeper(ctx)
	if err != nil {
		return nil, err
	}
	err = s.DB.QueryRowContext(ctx, `SELECT e.record_id FROM record_entries e JOIN records r ON r.id = e.record_id
		WHERE e.id = ? AND e.owner_id = ? AND r.professional_id = ? AND e.author_professional_id = ?`, versionID, a.owner, a.professional, a.professional).Scan(&record)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	return s.onRecord(ctx, record, "cosign-request", func(tx *db.Tx, a actor, _ *secretbox.Box) error {
		var ok bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM professionals WHERE id = ? AND user_id = ?)`, supervisorID, a.owner).Scan(&ok); err != nil {
			return err
		}
		if !ok || supervisorID == a.professional {
			return errSupervisor
		}
		var signed sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT signed_at FROM record_cosigns WHERE version_id = ?`, versionID).Scan(&signed)
		if err == nil && signed.Valid {
			return errSigned
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO record_cosigns (version_id, record_id, owner_id, supervisor_id, requested_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (version_id) DO UPDATE SET supervisor_id = excluded.supervisor_id, requested_at = excluded.requested_at`,
			versionID, record, a.owner, supervisorID, s.Clock.Now())
		return err
	})
}

// onRecord runs a change of a record the acting professional keeps, logs
// it, and answers the record as it reads after.
func (s *Service) onRecord(ctx context.Context, id, action string, change func(tx *db.Tx, a actor, box *secretbox.Box) error) (*Record, error) {
	a, err := s.keeper(ctx)
	if err != nil {
		return nil, err
	}
	var rec *Record
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		var ok bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records r WHERE id = ? AND owner_id = ? AND professional_id = ?
			AND NOT EXISTS (SELECT 1 FROM record_destructions d WHERE d.record_id = r.id))`, id, a.owner, a.professional).Scan(&ok); err != nil {
			return err
		}
		if !ok {
			return errNotFound
		}
		box, err := s.keyOf(ctx, tx, a.owner)
		if err != nil {
			return err
		}
		if err := change(tx, a, box); err != nil {
			return err
		}
		if err := s.log(ctx, tx, a, id, "", action); err != nil {
			return err
		}
		rec, err = s.read(ctx, tx, a, id)
		return err
	})
	return rec, err
}

// Shared is a summary shared with the one reading, or an entry a
// supervisor is asked to co-sign.
type Shared struct {
	RecordID     string     `json:"recordId"`
	Client       string     `json:"client"`
	Professional string     `json:"professional"`
	Summary      string     `json:"summary,omitempty"`
	Entry        *Entry     `json:"entry,omitempty"` // to co-sign
	UpdatedAt    time.Time  `json:"updatedAt"`
	SignedAt     *time.Time `json:"signedAt,omitempty"`
}

// SharedWithMe is what the practice's records show the one reading: the
// summaries shared with them (the owner reads those shared with "owner")
// and, for a professional, the entries they are asked to co-sign. Each
// record read is logged.
func (s *Service) SharedWithMe(ctx context.Context) ([]Shared, error) {
	owner, account, pro := auth.UserID(ctx), auth.Account(ctx), auth.Professional(ctx)
	var name string
	readers := []any{}
	if pro == "" {
		readers = append(readers, "owner")
		if err := s.DB.QueryRowContext(ctx, `SELECT COALESCE(name, '') FROM profiles WHERE id = ?`, owner).Scan(&name); err != nil {
			return nil, err
		}
		name += " (titular)"
		if self, err := s.Self(ctx, owner); err != nil {
			return nil, err
		} else if self != "" {
			pro = self
		}
	}
	if pro != "" {
		readers = append(readers, pro)
		if err := s.DB.QueryRowContext(ctx, `SELECT name FROM professionals WHERE id = ? AND user_id = ?`, pro, owner).Scan(&name); err != nil {
			return nil, err
		}
	}
	box, err := s.keyOf(ctx, s.DB, owner)
	if err != nil {
		return nil, err
	}
	loc, err := zoneOf(ctx, s.DB, owner)
	if err != nil {
		return nil, err
	}
	out := []Shared{}
	identity := func(id, sealed string) (string, error) {
		plain, err := box.Open(sealed, "record:"+id+":identity")
		if err != nil {
			return "", err
		}
		var who Identity
		return who.Name, json.Unmarshal([]byte(plain), &who)
	}
	in := strings.TrimSuffix(strings.Repeat("?, ", len(readers)), ", ")
	err = db.Each(ctx, s.DB, `SELECT sh.record_id, sh.reader, sh.summary, sh.updated_at, r.identity, COALESCE(p.name, '') FROM record_shares sh
		JOIN records r ON r.id = sh.record_id LEFT JOIN professionals p ON p.id = r.professional_id
		WHERE sh.owner_id = ? AND sh.reader IN (`+in+`) ORDER BY sh.updated_at DESC`, append([]any{owner}, readers...), func(r *sql.Rows) error {
		var x Shared
		var reader, sealed string
		if err := r.Scan(&x.RecordID, &reader, &x.Summary, &x.UpdatedAt, &sealed, &x.Professional); err != nil {
			return err
		}
		var err error
		if x.Summary, err = box.Open(x.Summary, "record:"+x.RecordID+":summary:"+reader); err != nil {
			return err
		}
		if x.Client, err = identity(x.RecordID, sealed); err != nil {
			return err
		}
		x.UpdatedAt = x.UpdatedAt.UTC()
		out = append(out, x)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if pro != "" {
		err = db.Each(ctx, s.DB, `SELECT c.record_id, c.requested_at, c.signed_at, r.identity, e.id, e.entry_id, e.version, e.kind, e.template, e.session_date, e.body,
				e.author_name, e.author_council, e.created_at
			FROM record_cosigns c JOIN records r ON r.id = c.record_id JOIN record_entries e ON e.id = c.version_id
			WHERE c.owner_id = ? AND c.supervisor_id = ? ORDER BY c.signed_at IS NOT NULL, c.requested_at DESC LIMIT 200`, []any{owner, pro}, func(r *sql.Rows) error {
			var x Shared
			var e Entry
			var signed sql.NullTime
			var sealed string
			if err := r.Scan(&x.RecordID, &x.UpdatedAt, &signed, &sealed, &e.ID, &e.EntryID, &e.Version, &e.Kind, &e.Template, &e.SessionDate, &e.Body,
				&e.AuthorName, &e.AuthorCouncil, &e.CreatedAt); err != nil {
				return err
			}
			var err error
			if e.Body, err = box.Open(e.Body, "record:"+x.RecordID+":entry:"+e.ID); err != nil {
				return err
			}
			if x.Client, err = identity(x.RecordID, sealed); err != nil {
				return err
			}
			e.CreatedAt = e.CreatedAt.UTC()
			e.Signature = signature(e.AuthorName, e.AuthorCouncil, e.CreatedAt.In(loc))
			x.Professional, x.Entry, x.UpdatedAt = e.AuthorName, &e, x.UpdatedAt.UTC()
			if signed.Valid {
				t := signed.Time.UTC()
				x.SignedAt = &t
			}
			out = append(out, x)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(out) > 0 {
		a := actor{owner: owner, account: account, name: name}
		err = s.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
			seen := map[string]bool{}
			for _, x := range out {
				if !seen[x.RecordID] {
					seen[x.RecordID] = true
					if err := s.log(ctx, tx, a, x.RecordID, "", "read-shared"); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	return out, err
}

// SignCosign is the supervisor's co-signature of the version they were
// asked to sign.
func (s *Service) SignCosign(ctx context.Context, versionID string) error {
	a, err := s.keeper(ctx)
	if err != nil {
		return err
	}
	return s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		var record string
		var signed sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT record_id, signed_at FROM record_cosigns WHERE version_id = ? AND owner_id = ? AND supervisor_id = ?`,
			versionID, a.owner, a.professional).Scan(&record, &signed)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		if signed.Valid {
			return errSigned
		}
		if _, err := tx.ExecContext(ctx, `UPDATE record_cosigns SET signed_at = ?, signer_account = ?, signer_name = ?, signer_council = ? WHERE version_id = ?`,
			s.Clock.Now(), a.account, a.name, a.council, versionID); err != nil {
			return err
		}
		return s.log(ctx, tx, a, record, "", "cosign")
	})
}

func (h *Handlers) addDocument(w http.ResponseWriter, r *http.Request) error {
	var in DocumentInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	rec, err := h.Svc.AddDocument(r.Context(), r.PathValue("id"), in)
	return recordAnswer(w, http.StatusCreated, rec, err)
}

func (h *Handlers) share(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Reader  string `json:"reader"`
		Summary string `json:"summary"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	rec, err := h.Svc.Share(r.Context(), r.PathValue("id"), in.Reader, in.Summary)
	return recordAnswer(w, http.StatusOK, rec, err)
}

func (h *Handlers) requestCosign(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		SupervisorID string `json:"supervisorId"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	rec, err := h.Svc.RequestCosign(r.Context(), r.PathValue("id"), in.SupervisorID)
	return recordAnswer(w, http.StatusOK, rec, err)
}

func (h *Handlers) signCosign(w http.ResponseWriter, r *http.Request) error {
	if err := h.Svc.SignCosign(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

func (h *Handlers) shared(w http.ResponseWriter, r *http.Request) error {
	out, err := h.Svc.SharedWithMe(r.Context())
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"shared": out})
	return nil
}

// recordAnswer writes a record's answer, never kept by a cache.
func recordAnswer(w http.ResponseWriter, status int, rec *Record, err error) error {
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, status, map[string]any{"record": rec})
	return nil
}

// Team is who the record pages can name (a summary's reader, a
// co-signature's supervisor): the acting professional and their active
// colleagues, by name alone — a professional signed in as themself reads no
// more of the team than this.
type Team struct {
	Self       string      `json:"self"`
	Colleagues []Colleague `json:"colleagues"`
}

// Colleague is a professional of the team, by name.
type Colleague struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// TeamOf is the acting professional's team.
func (s *Service) TeamOf(ctx context.Context) (*Team, error) {
	a, err := s.keeper(ctx)
	if err != nil {
		return nil, err
	}
	t := &Team{Self: a.professional, Colleagues: []Colleague{}}
	err = db.Each(ctx, s.DB, `SELECT id, name FROM professionals WHERE user_id = ? AND active AND id <> ? ORDER BY name, id`, []any{a.owner, a.professional},
		func(r *sql.Rows) error {
			var c Colleague
			if err := r.Scan(&c.ID, &c.Name); err != nil {
				return err
			}
			t.Colleagues = append(t.Colleagues, c)
			return nil
		})
	return t, err
}

func (h *Handlers) team(w http.ResponseWriter, r *http.Request) error {
	t, err := h.Svc.TeamOf(r.Context())
	return httpx.Respond(w, http.StatusOK, t, err)
}

package records

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Retention (issue 43 §2): nothing deletes a record by itself. A record may
// be destroyed no sooner than 5 years after its last entry (CFP Resolução
// 001/2009 art. 4; CFP 06/2019, 31/2022 and 09/2024 kept the 5 years), an act
// its professional signs and the record keeps; Lei 13.787/2018 (art. 6) lets
// patient records be eliminated 20 years after the last entry, which the
// screens show beside it.

const (
	minYears = 5
	lawYears = 20
)

var (
	errTooSoon     = httpx.NewError(http.StatusConflict, "retention", "Este prontuário ainda está no prazo de guarda: pode ser eliminado só 5 anos após a última anotação.")
	errDestroyWord = httpx.Validation("Digite ELIMINAR para confirmar a eliminação do prontuário.")
)

// Summary is one record in the professional's list of the records they keep.
type Summary struct {
	ID          string     `json:"id"`
	Client      string     `json:"client"`
	ClientRef   string     `json:"clientRef,omitempty"` // an appointment of the client's, for the client's page ("" once erased)
	LastEntryAt *time.Time `json:"lastEntryAt,omitempty"`
	Erased      bool       `json:"erased"`
	KeptUntil   string     `json:"keptUntil"` // YYYY-MM-DD: may be destroyed from then
	LawUntil    string     `json:"lawUntil"`  // YYYY-MM-DD: Lei 13.787/2018's 20 years
	Destroyed   bool       `json:"destroyed"`
}

// until is a record's retention dates from its last entry (or its start).
func until(created time.Time, last sql.NullTime) (kept, law string) {
	from := created
	if last.Valid {
		from = last.Time
	}
	return from.AddDate(minYears, 0, 0).Format("2006-01-02"), from.AddDate(lawYears, 0, 0).Format("2006-01-02")
}

// List is every record the acting professional keeps, the erased clients'
// included (found by the name sealed inside), newest entry first.
func (s *Service) List(ctx context.Context) ([]Summary, error) {
	a, err := s.actor(ctx)
	if err != nil {
		return nil, err
	}
	box, err := s.keyOf(ctx, s.DB, a.owner)
	if err != nil {
		return nil, err
	}
	out := []Summary{}
	err = db.Each(ctx, s.DB, `SELECT r.id, r.identity, r.created_at, r.last_entry_at, r.erased_at IS NOT NULL, d.record_id IS NOT NULL,
			(SELECT ap.id FROM appointments ap WHERE ap.user_id = r.owner_id AND ap.client_key = r.client_key AND r.client_key <> '' LIMIT 1)
		FROM records r LEFT JOIN record_destructions d ON d.record_id = r.id
		WHERE r.owner_id = ? AND r.professional_id = ? ORDER BY COALESCE(r.last_entry_at, r.created_at) DESC`, []any{a.owner, a.professional}, func(rows *sql.Rows) error {
		var x Summary
		var identity string
		var created time.Time
		var last sql.NullTime
		var ref sql.NullString
		if err := rows.Scan(&x.ID, &identity, &created, &last, &x.Erased, &x.Destroyed, &ref); err != nil {
			return err
		}
		x.ClientRef = ref.String
		x.KeptUntil, x.LawUntil = until(created, last)
		if last.Valid {
			t := last.Time.UTC()
			x.LastEntryAt = &t
		}
		if !x.Destroyed {
			plain, err := box.Open(identity, "record:"+x.ID+":identity")
			if err != nil {
				return err
			}
			var id Identity
			if err := json.Unmarshal([]byte(plain), &id); err != nil {
				return err
			}
			x.Client = id.Name
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

// Destroy eliminates a record past its retention: its entries go, its
// identification is wiped, and the signed act stays (who, when, how many
// entries) with the record's log.
func (s *Service) Destroy(ctx context.Context, id, confirm string) error {
	if strings.TrimSpace(confirm) != "ELIMINAR" {
		return errDestroyWord
	}
	a, err := s.keeper(ctx)
	if err != nil {
		return err
	}
	var keys []string
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		var created time.Time
		var last sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT created_at, last_entry_at FROM records r WHERE id = ? AND owner_id = ? AND professional_id = ?
			AND NOT EXISTS (SELECT 1 FROM record_destructions d WHERE d.record_id = r.id)`, id, a.owner, a.professional).Scan(&created, &last)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		if kept, _ := until(created, last); s.Clock.Now().Format("2006-01-02") < kept {
			return errTooSoon
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM record_entries WHERE record_id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO record_destructions (record_id, owner_id, by_account, by_name, by_council, entries, destroyed_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, a.owner, a.account, a.name, a.council, n, s.Clock.Now()); err != nil {
			return err
		}
		if keys, err = storeKeys(ctx, tx, id); err != nil {
			return err
		}
		for _, table := range []string{"record_entries", "record_documents", "record_files"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE record_id = ?`, id); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM record_shares WHERE record_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE records SET identity = '', client_key = '', client_copy = FALSE WHERE id = ?`, id); err != nil {
			return err
		}
		return s.log(ctx, tx, a, id, "", "destroy")
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := s.Files.Delete(context.WithoutCancel(ctx), k); err != nil {
			httpx.Logger(ctx).Warn("records: a destroyed record's file not deleted from the store", "err", err)
		}
	}
	if err := s.DB.Reclaim(context.WithoutCancel(ctx), "record_entries", "record_documents", "record_files", "record_shares", "records"); err != nil {
		httpx.Logger(ctx).Warn("records: free space not reclaimed after a destruction", "err", err)
	}
	return nil
}

// Holders is, for an incident notice (LGPD art. 48; Res. CD/ANPD 15/2024),
// the clients whose records a professional of the practice keeps: their
// identification only, never a note. The owner's; each record's log says it
// was exported.
func (s *Service) Holders(ctx context.Context, owner, professionalID string, w http.ResponseWriter) error {
	box, err := s.keyOf(ctx, s.DB, owner)
	if err != nil {
		return err
	}
	var ownerName string
	if err := s.DB.QueryRowContext(ctx, `SELECT COALESCE(name, '') FROM profiles WHERE id = ?`, owner).Scan(&ownerName); err != nil {
		return err
	}
	type row struct {
		id      string
		who     Identity
		created time.Time
		last    sql.NullTime
	}
	var rows []row
	err = db.Each(ctx, s.DB, `SELECT r.id, r.identity, r.created_at, r.last_entry_at FROM records r
		WHERE r.owner_id = ? AND r.professional_id = ? AND NOT EXISTS (SELECT 1 FROM record_destructions d WHERE d.record_id = r.id)
		ORDER BY r.created_at`, []any{owner, professionalID}, func(rs *sql.Rows) error {
		var x row
		var identity string
		if err := rs.Scan(&x.id, &identity, &x.created, &x.last); err != nil {
			return err
		}
		plain, err := box.Open(identity, "record:"+x.id+":identity")
		if err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(plain), &x.who); err != nil {
			return err
		}
		rows = append(rows, x)
		return nil
	})
	if err != nil {
		return err
	}
	a := actor{owner: owner, account: auth.Account(ctx), name: ownerName + " (titular)"}
	if err := s.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		for _, x := range rows {
			if err := s.log(ctx, tx, a, x.id, "", "export"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="prontuarios-clientes.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	if _, err := w.Write([]byte("\uFEFF")); err != nil {
		return err
	}
	c := csv.NewWriter(w)
	c.Comma = ';'
	if err := c.Write([]string{"Cliente", "Telefone", "E-mail", "Prontuário desde", "Última anotação"}); err != nil {
		return err
	}
	for _, x := range rows {
		last := ""
		if x.last.Valid {
			last = brfmt.Day(x.last.Time)
		}
		if err := c.Write([]string{brfmt.SheetCell(x.who.Name), brfmt.SheetCell(x.who.Phone), brfmt.SheetCell(x.who.Email), brfmt.Day(x.created), last}); err != nil {
			return err
		}
	}
	c.Flush()
	return c.Error()
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	l, err := h.Svc.List(r.Context())
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"records": l})
	return nil
}

func (h *Handlers) destroy(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Confirm string `json:"confirm"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := h.Svc.Destroy(r.Context(), r.PathValue("id"), in.Confirm); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
	return nil
}

func (h *Handlers) holders(w http.ResponseWriter, r *http.Request) error {
	owner, pro := auth.UserID(r.Context()), r.URL.Query().Get("professional")
	var ok bool
	if err := h.Svc.DB.QueryRowContext(r.Context(), `SELECT EXISTS (SELECT 1 FROM records WHERE owner_id = ? AND professional_id = ?)
		OR EXISTS (SELECT 1 FROM professionals WHERE user_id = ? AND id = ?)`, owner, pro, owner, pro).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errSelfProfessional
	}
	return h.Svc.Holders(r.Context(), owner, pro, w)
}

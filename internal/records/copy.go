package records

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/team"
)

// The client's copy (issue 43 §2; CFP 001/2009 art. 5 II: the prontuário is
// fully accessible to the patient): the prontuário part of a record, never a
// registro sigiloso, as a document to print — given by the professional, or
// read by the client through their private link when the professional
// allows it. Every copy is in the record's log.

// clientReadEvery is how often a client's reads through their link reach
// the record's log: the first in each such span.
const clientReadEvery = 24 * time.Hour

var errNoCopy = httpx.NewError(http.StatusNotFound, "not_found", "Nenhum prontuário disponível por este link.")

// Copy is the document.
type Copy struct {
	Practice     string    `json:"practice"`
	Professional string    `json:"professional"`
	Council      string    `json:"council"`
	Client       string    `json:"client"`
	Entries      [][]Entry `json:"entries"` // prontuário entries only, each with its versions
}

// LinkFinder finds the appointment a client's private link names.
type LinkFinder interface {
	LinkAppointment(ctx context.Context, token string) (string, error)
}

// copyOf builds the copy of a record for a, keeping the prontuário part only.
func (s *Service) copyOf(ctx context.Context, q db.Querier, a actor, id string) (*Copy, error) {
	rec, err := s.read(ctx, q, a, id)
	if err != nil {
		return nil, err
	}
	c := &Copy{Client: rec.Client.Name, Entries: [][]Entry{}}
	var council, uf, number string
	err = q.QueryRowContext(ctx, `SELECT COALESCE(p.name, ''), COALESCE(pr.name, ''), COALESCE(pr.council, ''), COALESCE(pr.council_uf, ''), COALESCE(pr.council_number, '')
		FROM profiles p LEFT JOIN professionals pr ON pr.id = ? AND pr.user_id = p.id WHERE p.id = ?`, a.professional, a.owner).
		Scan(&c.Practice, &c.Professional, &council, &uf, &number)
	if err != nil {
		return nil, err
	}
	c.Council = team.CouncilLabel(council, uf, number)
	for _, versions := range rec.Entries {
		if versions[0].Kind == KindRecord {
			c.Entries = append(c.Entries, versions)
		}
	}
	if c.Professional == "" && len(c.Entries) > 0 {
		c.Professional, c.Council = c.Entries[0][0].AuthorName, c.Entries[0][0].AuthorCouncil
	}
	return c, nil
}

// PrintCopy is the professional's copy of their record, to print or hand
// over; logged as a print.
func (s *Service) PrintCopy(ctx context.Context, id string) (*Copy, error) {
	a, err := s.keeper(ctx)
	if err != nil {
		return nil, err
	}
	var c *Copy
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		var err error
		if c, err = s.copyOf(ctx, tx, a, id); err != nil {
			return err
		}
		return s.log(ctx, tx, a, id, "", "print")
	})
	return c, err
}

// SetClientCopy lets (or stops letting) the client read the prontuário part
// through their private link.
func (s *Service) SetClientCopy(ctx context.Context, id string, allow bool) error {
	a, err := s.keeper(ctx)
	if err != nil {
		return err
	}
	return s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		if err := db.ExecOwned(ctx, tx, errNotFound, `UPDATE records SET client_copy = ? WHERE id = ? AND owner_id = ? AND professional_id = ?`,
			allow, id, a.owner, a.professional); err != nil {
			return err
		}
		action := "share"
		if !allow {
			action = "unshare"
		}
		return s.log(ctx, tx, a, id, "", action)
	})
}

// ClientCopy is what the client reads through their private link: the
// prontuário part of the record their appointment's professional keeps, when
// that professional allowed it. Logged as read by the client.
func (s *Service) ClientCopy(ctx context.Context, token string) (*Copy, error) {
	appt, err := s.Links.LinkAppointment(ctx, token)
	if err != nil {
		return nil, err
	}
	var a actor
	var id string
	err = s.DB.QueryRowContext(ctx, `SELECT r.id, r.owner_id, r.professional_id FROM appointments ap
		JOIN records r ON r.owner_id = ap.user_id AND r.professional_id = ap.professional_id AND r.client_key = ap.client_key AND r.client_key <> ''
		WHERE ap.id = ? AND r.client_copy`, appt).Scan(&id, &a.owner, &a.professional)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoCopy
	}
	if err != nil {
		return nil, err
	}
	a.name = "Cliente (link privado)"
	var c *Copy
	err = s.DB.OwnerTx(ctx, a.owner, func(tx *db.Tx) error {
		var err error
		if c, err = s.copyOf(ctx, tx, a, id); err != nil {
			return err
		}
		// Anyone holding the link can read as often as they like; the log
		// keeps the first read of each day, so an anonymous caller adds at
		// most one row a day to an append-only table.
		var logged int
		err = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM record_log WHERE record_id = ? AND action = 'client-read' AND at > ?`,
			id, s.Clock.Now().Add(-clientReadEvery)).Scan(&logged)
		if err != nil || logged > 0 {
			return err
		}
		return s.log(ctx, tx, a, id, "", "client-read")
	})
	return c, err
}

func (h *Handlers) printCopy(w http.ResponseWriter, r *http.Request) error {
	c, err := h.Svc.PrintCopy(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusOK, c)
	return nil
}

func (h *Handlers) setClientCopy(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Allow *bool `json:"allow"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Allow == nil {
		return httpx.Validation("Diga se o cliente pode ver o prontuário pelo link.")
	}
	if err := h.Svc.SetClientCopy(r.Context(), r.PathValue("id"), *in.Allow); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"clientCopy": *in.Allow})
	return nil
}

func (h *Handlers) clientCopy(w http.ResponseWriter, r *http.Request) error {
	c, err := h.Svc.ClientCopy(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusOK, c)
	return nil
}

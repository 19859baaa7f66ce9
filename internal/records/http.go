package records

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Template is a starting text for an entry, the owner's to edit.
type Template struct {
	Template string `json:"template"` // anamnese, evolucao, encerramento
	Body     string `json:"body"`
}

// defaults follow what CFP Resolução 001/2009 (art. 2) asks a record to
// hold: the demand and the objectives, the evolution and the procedures,
// the closure or referral.
var defaults = []Template{
	{"anamnese", "Identificação e contexto:\n\nDemanda (queixa principal):\n\nHistórico relevante:\n\nObjetivos do trabalho:\n"},
	{"evolucao", "Temas trabalhados:\n\nProcedimentos e técnicas:\n\nEvolução observada:\n\nPróximos passos:\n"},
	{"encerramento", "Motivo do encerramento ou do encaminhamento:\n\nSíntese do processo:\n\nEncaminhamento (para quem e por quê):\n"},
}

// Templates are the owner's templates, the defaults where none was saved.
func (s *Service) Templates(ctx context.Context, owner string) ([]Template, error) {
	saved := map[string]string{}
	err := db.Each(ctx, s.DB, `SELECT template, body FROM record_templates WHERE owner_id = ?`, []any{owner}, func(r *sql.Rows) error {
		var t, b string
		if err := r.Scan(&t, &b); err != nil {
			return err
		}
		saved[t] = b
		return nil
	})
	out := make([]Template, 0, len(defaults))
	for _, d := range defaults {
		if b, ok := saved[d.Template]; ok {
			d.Body = b
		}
		out = append(out, d)
	}
	return out, err
}

// SaveTemplates writes the owner's templates.
func (s *Service) SaveTemplates(ctx context.Context, owner string, in []Template) ([]Template, error) {
	for _, t := range in {
		if t.Template == "livre" || !templates[t.Template] {
			return nil, errTemplate
		}
		if utf8.RuneCountInString(t.Body) > 5000 {
			return nil, errTemplateBody
		}
	}
	err := s.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		for _, t := range in {
			if _, err := tx.ExecContext(ctx, `INSERT INTO record_templates (owner_id, template, body, updated_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (owner_id, template) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
				owner, t.Template, strings.TrimRight(t.Body, " \n"), s.Clock.Now()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Templates(ctx, owner)
}

var errSelfProfessional = httpx.NewError(http.StatusNotFound, "not_found", "Profissional não encontrado.")

// SetSelf says which professional of the team the owner is ("" none): the
// owner then writes and reads that professional's records.
func (s *Service) SetSelf(ctx context.Context, owner, professionalID string) error {
	return s.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		var self any
		if professionalID != "" {
			var ok bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM professionals WHERE id = ? AND user_id = ?)`, professionalID, owner).Scan(&ok); err != nil {
				return err
			}
			if !ok {
				return errSelfProfessional
			}
			self = professionalID
		}
		_, err := tx.ExecContext(ctx, `UPDATE profiles SET self_professional_id = ?, updated_at = ? WHERE id = ?`, self, s.Clock.Now(), owner)
		return err
	})
}

// Self is the professional the owner is ("" none).
func (s *Service) Self(ctx context.Context, owner string) (string, error) {
	var self sql.NullString
	err := s.DB.QueryRowContext(ctx, `SELECT self_professional_id FROM profiles WHERE id = ?`, owner).Scan(&self)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return self.String, err
}

// Handlers serves the records' routes. Each is the team's (auth.RequireTeam):
// a professional signed in as themself reaches their own records; the owner
// reaches the records of the professional they are, and no other's.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/records", h.Auth.RequireTeam(httpx.Handle(h.get)))
	mux.Handle("POST /api/records/entries", h.Auth.RequireTeam(httpx.Handle(h.write)))
	mux.Handle("POST /api/records/entries/{id}/versions", h.Auth.RequireTeam(httpx.Handle(h.correct)))
	mux.Handle("GET /api/records/{id}/log", h.Auth.RequireTeam(httpx.Handle(h.log)))
	mux.Handle("GET /api/records/list", h.Auth.RequireTeam(httpx.Handle(h.list)))
	mux.Handle("GET /api/records/shared", h.Auth.RequireTeam(httpx.Handle(h.shared)))
	mux.Handle("GET /api/records/team", h.Auth.RequireTeam(httpx.Handle(h.team)))
	mux.Handle("POST /api/records/{id}/files", h.Auth.RequireTeam(httpx.Handle(h.attach)))
	mux.Handle("GET /api/records/{id}/files/{file}", h.Auth.RequireTeam(httpx.Handle(h.download)))
	mux.Handle("POST /api/records/{id}/documents", h.Auth.RequireTeam(httpx.Handle(h.addDocument)))
	mux.Handle("PUT /api/records/{id}/share", h.Auth.RequireTeam(httpx.Handle(h.share)))
	mux.Handle("PUT /api/records/versions/{id}/cosign", h.Auth.RequireTeam(httpx.Handle(h.requestCosign)))
	mux.Handle("POST /api/records/versions/{id}/cosign", h.Auth.RequireTeam(httpx.Handle(h.signCosign)))
	mux.Handle("POST /api/records/{id}/destroy", h.Auth.RequireTeam(httpx.Handle(h.destroy)))
	mux.Handle("GET /api/records/holders.csv", h.Auth.RequireUser(httpx.Handle(h.holders)))
	mux.Handle("GET /api/records/{id}/copy", h.Auth.RequireTeam(httpx.Handle(h.printCopy)))
	mux.Handle("PUT /api/records/{id}/client-copy", h.Auth.RequireTeam(httpx.Handle(h.setClientCopy)))
	mux.Handle("GET /api/public/bookings/{token}/record", httpx.Handle(h.clientCopy))
	mux.Handle("GET /api/record-templates", h.Auth.RequireTeam(httpx.Handle(h.templates)))
	mux.Handle("PUT /api/record-templates", h.Auth.RequireUser(httpx.Handle(h.saveTemplates)))
	mux.Handle("GET /api/records/self", h.Auth.RequireUser(httpx.Handle(h.self)))
	mux.Handle("PUT /api/records/self", h.Auth.RequireUser(httpx.Handle(h.setSelf)))
}

// noStore: a record's answer is never kept by a browser or a proxy.
func noStore(w http.ResponseWriter) { w.Header().Set("Cache-Control", "no-store") }

func (h *Handlers) get(w http.ResponseWriter, r *http.Request) error {
	rec, err := h.Svc.Get(r.Context(), r.URL.Query().Get("client"))
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"record": rec})
	return nil
}

// maxEntryBody bounds a request: an entry of 20,000 characters, in UTF-8.
const maxEntryBody = 128 << 10

func (h *Handlers) write(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxEntryBody)
	var in EntryInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	rec, err := h.Svc.Write(r.Context(), in)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"record": rec})
	return nil
}

func (h *Handlers) correct(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxEntryBody)
	var in CorrectionInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	rec, err := h.Svc.Correct(r.Context(), r.PathValue("id"), in)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"record": rec})
	return nil
}

func (h *Handlers) log(w http.ResponseWriter, r *http.Request) error {
	lines, loc, err := h.Svc.Log(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	noStore(w)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"log": lines, "timeZone": loc.String()})
	return nil
}

func (h *Handlers) templates(w http.ResponseWriter, r *http.Request) error {
	ts, err := h.Svc.Templates(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, map[string]any{"templates": ts}, err)
}

func (h *Handlers) saveTemplates(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Templates []Template `json:"templates"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	ts, err := h.Svc.SaveTemplates(r.Context(), auth.UserID(r.Context()), in.Templates)
	return httpx.Respond(w, http.StatusOK, map[string]any{"templates": ts}, err)
}

func (h *Handlers) self(w http.ResponseWriter, r *http.Request) error {
	id, err := h.Svc.Self(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, map[string]string{"professionalId": id}, err)
}

func (h *Handlers) setSelf(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ProfessionalID string `json:"professionalId"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := h.Svc.SetSelf(r.Context(), auth.UserID(r.Context()), in.ProfessionalID); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"professionalId": in.ProfessionalID})
	return nil
}

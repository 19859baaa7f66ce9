package schedule

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/slots"
)

// Block is time an owner took out of a date ('Bloquear horário'): for one
// professional, or the whole practice when ProfessionalID is nil.
type Block struct {
	ID               string  `json:"id"`
	ProfessionalID   *string `json:"professionalId"`
	ProfessionalName string  `json:"professionalName"` // "" for the whole practice
	Date             string  `json:"date"`
	Start            string  `json:"start"`
	End              string  `json:"end"`
	Reason           string  `json:"reason"`
	// Kept are the confirmed appointments it was saved over and left in
	// place by the owner's choice.
	Kept []string `json:"kept"`
	// Outcomes, in the answer to its save, say what became of each
	// appointment it was saved over, and how its client was told.
	Outcomes []Outcome `json:"outcomes,omitempty"`
}

// BlockInput is a new block. Keep names the confirmed appointments inside
// it that the owner chose to leave in place, and Plan says for each keep or
// cancel (settle): the cancellations commit with the block or not at all;
// one left undecided refuses the save.
type BlockInput struct {
	ProfessionalID *string  `json:"professionalId"`
	Date           string   `json:"date"`
	Start          string   `json:"start"`
	End            string   `json:"end"`
	Reason         string   `json:"reason"`
	Keep           []string `json:"keep"`
	Plan           []Choice `json:"plan"`
}

var (
	errBlockTimes    = httpx.Validation("Informe o início e o fim do bloqueio (HH:MM), com o fim depois do início.")
	errBlockDate     = httpx.Validation("Informe uma data válida para o bloqueio.")
	errBlockNotFound = httpx.NewError(http.StatusNotFound, "not_found", "Bloqueio não encontrado.")
	errBlockRange    = httpx.Validation("Informe um período válido (até 62 dias).")
)

// Blocks lists the owner's blocks of a date range, by date and start.
func (s *Settings) Blocks(ctx context.Context, userID, from, to string) ([]Block, error) {
	f, err1 := slots.ParseDate(from)
	t, err2 := slots.ParseDate(to)
	if err1 != nil || err2 != nil || t.Before(f) || t.Sub(f) > 62*24*time.Hour {
		return nil, errBlockRange
	}
	out := []Block{}
	err := db.ReadAll(ctx, s.DB, BlocksRead(userID, from, to, &out))
	return out, err
}

// BlocksRead reads the owner's blocks of the dates from..to (inclusive), by
// date and start, into out: as a db.Read, so that a reader of a range (the
// agenda's grid) gets them in the same round trip as its appointments.
func BlocksRead(userID, from, to string, out *[]Block) db.Read {
	return db.Read{Query: `SELECT b.id, b.professional_id, COALESCE(p.name, ''), b.block_date, b.start_time, b.end_time, b.reason, b.kept
		FROM blocks b LEFT JOIN professionals p ON p.id = b.professional_id
		WHERE b.user_id = ? AND b.block_date >= ? AND b.block_date <= ? ORDER BY b.block_date, b.start_time, b.id`, Args: []any{userID, from, to},
		Row: func(scan func(...any) error) error {
			var b Block
			var pro sql.NullString
			var kept string
			if err := scan(&b.ID, &pro, &b.ProfessionalName, &b.Date, &b.Start, &b.End, &b.Reason, &kept); err != nil {
				return err
			}
			b.Kept = keptList(kept)
			if pro.Valid {
				b.ProfessionalID = &pro.String
			}
			*out = append(*out, b)
			return nil
		}}
}

// checkBlock validates a new block: the block, and its range in minutes.
func checkBlock(in BlockInput) (Block, int, int, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	if _, err := slots.ParseDate(in.Date); err != nil {
		return Block{}, 0, 0, errBlockDate
	}
	start, err1 := slots.ParseHHMM(in.Start)
	end, err2 := slots.ParseHHMM(in.End)
	if err1 != nil || err2 != nil || end <= start {
		return Block{}, 0, 0, errBlockTimes
	}
	if utf8.RuneCountInString(in.Reason) > 120 {
		return Block{}, 0, 0, errReason
	}
	b := Block{ID: uuid.NewString(), ProfessionalID: in.ProfessionalID, Date: in.Date, Start: in.Start, End: in.End, Reason: in.Reason, Kept: []string{}}
	if b.ProfessionalID != nil && *b.ProfessionalID == "" {
		b.ProfessionalID = nil
	}
	return b, start, end, nil
}

// AddBlock takes a range of a date out of the agenda. A confirmed
// appointment inside it stays only when the owner says so (Keep: after
// moving or cancelling the others), and is recorded with the block; from
// now on nothing is booked over it, publicly or by the owner.
func (s *Settings) AddBlock(ctx context.Context, userID string, in BlockInput) (*Block, error) {
	b, start, end, err := checkBlock(in)
	if err != nil {
		return nil, err
	}
	// The block takes the same locks as a booking of the professionals it
	// covers (their rows, in id order), so a booking racing it either
	// commits first — and is among the affected — or sees it.
	err = s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		name, found, err := lockProfessionals(ctx, tx, userID, b.ProfessionalID)
		if err != nil {
			return err
		}
		if !found {
			return errProfessional
		}
		b.ProfessionalName = name
		list, err := affected(ctx, tx, userID, b.ProfessionalID, b.Date, b.Date, start, end)
		if err != nil {
			return err
		}
		kept, outcomes, err := s.settle(ctx, tx, userID, list, in.Keep, in.Plan, func(date string, at, duration int) bool {
			return date == b.Date && at < end && start < at+max(duration, 1)
		})
		if err != nil {
			return err
		}
		b.Outcomes = outcomes
		b.Kept = keptList(kept)
		var pro any
		if b.ProfessionalID != nil {
			pro = *b.ProfessionalID
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO blocks (id, user_id, professional_id, block_date, start_time, end_time, reason, kept, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			b.ID, userID, pro, b.Date, b.Start, b.End, b.Reason, kept, s.Clock.Now())
		if err != nil {
			return err
		}
		return s.tellBlock(ctx, tx, userID, "Horário bloqueado", b)
	})
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// DeleteBlock gives the time back.
func (s *Settings) DeleteBlock(ctx context.Context, userID, id string) error {
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var b Block
		var pro, proID sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT b.block_date, b.start_time, b.end_time, b.reason, p.name, b.professional_id FROM blocks b LEFT JOIN professionals p ON p.id = b.professional_id
			WHERE b.id = ? AND b.user_id = ?`, id, userID).Scan(&b.Date, &b.Start, &b.End, &b.Reason, &pro, &proID)
		if errors.Is(err, sql.ErrNoRows) {
			return errBlockNotFound
		}
		if err != nil {
			return err
		}
		if pro.Valid {
			b.ProfessionalID, b.ProfessionalName = &pro.String, pro.String
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE id = ? AND user_id = ?`, id, userID); err != nil {
			return err
		}
		if err := s.tellFreed(ctx, tx, userID, proID, b.Date, b.Date, b.Start, b.End); err != nil {
			return err
		}
		return s.tellBlock(ctx, tx, userID, "Bloqueio removido", b)
	})
}

// tellBlock is the owner's notification of a block added or removed.
func (s *Settings) tellBlock(ctx context.Context, tx *db.Tx, userID, title string, b Block) error {
	desc := fmt.Sprintf("%s: %s, das %s às %s", who(b.ProfessionalID, b.ProfessionalName), brfmt.Date(b.Date), b.Start, b.End)
	return s.Notes.Create(ctx, tx, userID, notifications.Appointment, title, note(desc, b.Reason), "")
}

func (h *SettingsHandlers) listBlocks(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	out, err := h.Settings.Blocks(r.Context(), uid, r.URL.Query().Get("from"), r.URL.Query().Get("to"))
	return httpx.Respond(w, http.StatusOK, out, err)
}

func (h *SettingsHandlers) addBlock(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	var in BlockInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Settings.AddBlock(r.Context(), uid, in)
	return httpx.Respond(w, http.StatusCreated, out, err)
}

func (h *SettingsHandlers) previewBlock(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	var in BlockInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Settings.BlockAffected(r.Context(), uid, in)
	return httpx.Respond(w, http.StatusOK, map[string][]Affected{"appointments": out}, err)
}

func (h *SettingsHandlers) deleteBlock(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	return noContent(w, h.Settings.DeleteBlock(r.Context(), uid, r.PathValue("id")))
}

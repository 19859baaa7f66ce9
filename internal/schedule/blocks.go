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

	"github.com/agendei/agendei/internal/booking/slots"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
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
}

// BlockInput is a new block.
type BlockInput struct {
	ProfessionalID *string `json:"professionalId"`
	Date           string  `json:"date"`
	Start          string  `json:"start"`
	End            string  `json:"end"`
	Reason         string  `json:"reason"`
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
	err := db.Each(ctx, s.DB, `SELECT b.id, b.professional_id, COALESCE(p.name, ''), b.block_date, b.start_time, b.end_time, b.reason
		FROM blocks b LEFT JOIN professionals p ON p.id = b.professional_id
		WHERE b.user_id = ? AND b.block_date >= ? AND b.block_date <= ? ORDER BY b.block_date, b.start_time, b.id`, []any{userID, from, to}, func(r *sql.Rows) error {
		var b Block
		var pro sql.NullString
		if err := r.Scan(&b.ID, &pro, &b.ProfessionalName, &b.Date, &b.Start, &b.End, &b.Reason); err != nil {
			return err
		}
		if pro.Valid {
			b.ProfessionalID = &pro.String
		}
		out = append(out, b)
		return nil
	})
	return out, err
}

// AddBlock takes a range of a date out of the agenda. Appointments already
// there stay (the owner decides what to do with them); from now on nothing
// is booked over the block, publicly or by the owner.
func (s *Settings) AddBlock(ctx context.Context, userID string, in BlockInput) (*Block, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	if _, err := slots.ParseDate(in.Date); err != nil {
		return nil, errBlockDate
	}
	start, err1 := slots.ParseHHMM(in.Start)
	end, err2 := slots.ParseHHMM(in.End)
	if err1 != nil || err2 != nil || end <= start {
		return nil, errBlockTimes
	}
	if utf8.RuneCountInString(in.Reason) > 120 {
		return nil, errReason
	}
	b := Block{ID: uuid.NewString(), ProfessionalID: in.ProfessionalID, Date: in.Date, Start: in.Start, End: in.End, Reason: in.Reason}
	if b.ProfessionalID != nil && *b.ProfessionalID == "" {
		b.ProfessionalID = nil
	}
	// The block takes the same locks as a booking of the professionals it
	// covers (their rows, in id order), so a booking racing it either
	// commits first or sees it.
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		var pro any
		q, args := `SELECT id, name FROM professionals WHERE user_id = ?`, []any{userID}
		if b.ProfessionalID != nil {
			q, args, pro = q+` AND id = ?`, append(args, *b.ProfessionalID), *b.ProfessionalID
		}
		found := false
		err := db.Each(ctx, tx, q+` ORDER BY id`+tx.LockRow(), args, func(r *sql.Rows) error {
			var id, name string
			if err := r.Scan(&id, &name); err != nil {
				return err
			}
			found = true
			if b.ProfessionalID != nil {
				b.ProfessionalName = name
			}
			return nil
		})
		if err != nil {
			return err
		}
		if b.ProfessionalID != nil && !found {
			return errProfessional
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO blocks (id, user_id, professional_id, block_date, start_time, end_time, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			b.ID, userID, pro, b.Date, b.Start, b.End, b.Reason, s.Clock.Now())
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
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var b Block
		var pro sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT b.block_date, b.start_time, b.end_time, b.reason, p.name FROM blocks b LEFT JOIN professionals p ON p.id = b.professional_id
			WHERE b.id = ? AND b.user_id = ?`, id, userID).Scan(&b.Date, &b.Start, &b.End, &b.Reason, &pro)
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
		return s.tellBlock(ctx, tx, userID, "Bloqueio removido", b)
	})
}

// tellBlock is the owner's notification of a block added or removed.
func (s *Settings) tellBlock(ctx context.Context, tx *db.Tx, userID, title string, b Block) error {
	desc := fmt.Sprintf("%s: %s, das %s às %s", who(b.ProfessionalID, b.ProfessionalName), brfmt.Date(b.Date), b.Start, b.End)
	return s.Notes.Create(ctx, tx, userID, notifications.Appointment, title, note(desc, b.Reason), "")
}

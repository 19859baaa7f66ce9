package calendars

import (
	"context"
	"database/sql"
	"time"

	"github.com/agendei/agendei/internal/booking"
)

// A failed write-back is seen by the owner, not only in the outbox and the
// log: each source keeps its last failure — when, and why in pt-BR
// (writeReason: a status or a fixed reason, never a client's name nor the
// server's paths) — until a write there works again, and its card says
// "Não conseguimos gravar na sua agenda às 14:05: <motivo>".

// WriteError is a source's last failed write.
type WriteError struct {
	At      time.Time `json:"at"`
	Message string    `json:"message"`
}

func writeErrorOf(message string, at sql.NullTime) *WriteError {
	if message == "" || !at.Valid {
		return nil
	}
	return &WriteError{At: at.Time.UTC(), Message: message}
}

// recorded is a Writer whose failures and successes are kept on the source.
type recorded struct {
	s *Service
	w Writer
}

func (r recorded) Put(ctx context.Context, sourceID, calendar string, ev booking.Invite) error {
	err := r.w.Put(ctx, sourceID, calendar, ev)
	r.s.recordWrite(ctx, sourceID, err)
	return err
}

func (r recorded) Delete(ctx context.Context, sourceID, calendar, uid string) error {
	err := r.w.Delete(ctx, sourceID, calendar, uid)
	r.s.recordWrite(ctx, sourceID, err)
	return err
}

// recordWrite keeps a failed write on its source, or clears the last one
// when a write worked. A drain stopped by its context records nothing.
func (s *Service) recordWrite(ctx context.Context, sourceID string, werr error) {
	if werr != nil && ctx.Err() != nil {
		return
	}
	var err error
	if werr == nil {
		_, err = s.DB.ExecContext(ctx, `UPDATE calendar_sources SET write_error = '', write_error_at = NULL WHERE id = ? AND write_error <> ''`, sourceID)
	} else {
		_, err = s.DB.ExecContext(ctx, `UPDATE calendar_sources SET write_error = ?, write_error_at = ? WHERE id = ?`, writeReason(werr), s.Clock.Now(), sourceID)
	}
	if err != nil && s.Log != nil && ctx.Err() == nil {
		s.Log.Warn("calendars: record a write", "err", err)
	}
}

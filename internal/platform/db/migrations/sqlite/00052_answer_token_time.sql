-- +goose Up
-- for_start: the appointment's start when the link was sent. A link answers
-- for that time only: after the appointment moves, an old "Confirmar" does
-- not confirm the new time the client was never asked about. NULL for links
-- sent before this column (they answer as before).
ALTER TABLE answer_tokens ADD COLUMN for_start TIMESTAMP;

-- +goose Down
ALTER TABLE answer_tokens DROP COLUMN for_start;

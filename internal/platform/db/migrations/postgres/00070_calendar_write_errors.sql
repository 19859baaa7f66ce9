-- +goose Up
-- A calendar source's last failed write-back (issue 42): when and why in
-- pt-BR (never a client's name, nor the server's paths), shown on its card
-- as "Não conseguimos gravar na sua agenda às 14:05: <motivo>"; cleared by
-- the next write that works.
ALTER TABLE calendar_sources ADD COLUMN write_error TEXT NOT NULL DEFAULT '';
ALTER TABLE calendar_sources ADD COLUMN write_error_at TIMESTAMPTZ;

-- +goose Down
ALTER TABLE calendar_sources DROP COLUMN write_error_at;
ALTER TABLE calendar_sources DROP COLUMN write_error;

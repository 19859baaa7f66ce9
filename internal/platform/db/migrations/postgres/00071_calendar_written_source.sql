-- +goose Up
-- A Google read takes the appointments written into each calendar it reads
-- out of freeBusy's busy time (issue 42 §3): found by their source.
CREATE INDEX calendar_written_source ON calendar_written (source_id);

-- +goose Down
DROP INDEX calendar_written_source;

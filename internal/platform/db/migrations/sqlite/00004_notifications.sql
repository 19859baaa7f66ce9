-- +goose Up
CREATE TABLE notifications (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type           TEXT NOT NULL CHECK (type IN ('appointment', 'system', 'client', 'reminder')),
    title          TEXT NOT NULL,
    description    TEXT NOT NULL DEFAULT '',
    read           BOOLEAN NOT NULL DEFAULT FALSE,
    appointment_id TEXT REFERENCES appointments(id) ON DELETE SET NULL,
    metadata       TEXT NOT NULL DEFAULT '{}',
    created_at     TIMESTAMP NOT NULL
);
CREATE INDEX notifications_user ON notifications (user_id, created_at);

-- +goose Down
DROP TABLE notifications;

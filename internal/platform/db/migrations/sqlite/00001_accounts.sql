-- +goose Up
-- Accounts, sessions, limits and the job queue: what the foundation needs.
-- Instants are UTC TIMESTAMPs (stored by the driver as sortable text).
CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    email              TEXT NOT NULL UNIQUE,          -- lowercased, trimmed
    password_hash      TEXT NOT NULL,                 -- argon2id, PHC string
    keyword_hash       TEXT,                          -- argon2id of the recovery keyword; NULL = not configured
    reset_failures     INTEGER NOT NULL DEFAULT 0,    -- wrong keywords since the last lock or success
    reset_lockouts     INTEGER NOT NULL DEFAULT 0,    -- how many times the keyword reset was locked
    reset_locked_until TIMESTAMP,
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL
);

CREATE TABLE profiles (
    id              TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    name            TEXT NOT NULL DEFAULT '',
    email           TEXT NOT NULL DEFAULT '',
    public_username TEXT,                              -- stored lowercased; unique
    area            TEXT NOT NULL DEFAULT '',
    description     TEXT NOT NULL DEFAULT '',
    phone           TEXT NOT NULL DEFAULT '',
    website         TEXT NOT NULL DEFAULT '',
    instagram       TEXT NOT NULL DEFAULT '',
    linkedin        TEXT NOT NULL DEFAULT '',
    whatsapp        TEXT NOT NULL DEFAULT '',
    photo_url       TEXT NOT NULL DEFAULT '',
    time_zone       TEXT NOT NULL DEFAULT 'America/Sao_Paulo',
    trial_ends_at   TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX profiles_public_username ON profiles (public_username);

CREATE TABLE refresh_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    family_id  TEXT NOT NULL,                          -- one sign-in and every rotation of it
    token_hash TEXT NOT NULL UNIQUE,                   -- SHA-256 of the cookie value
    expires_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP,                              -- rotated: presenting it again is reuse
    revoked_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

CREATE TABLE recovery_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX recovery_tokens_user ON recovery_tokens (user_id);

CREATE TABLE rate_limits (
    key          TEXT PRIMARY KEY,
    window_start TIMESTAMP NOT NULL,
    count        INTEGER NOT NULL
);

CREATE TABLE jobs (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    payload      TEXT NOT NULL,
    run_at       TIMESTAMP NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    locked_until TIMESTAMP,
    last_error   TEXT NOT NULL DEFAULT '',
    done_at      TIMESTAMP,
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX jobs_due ON jobs (run_at) WHERE done_at IS NULL;

-- +goose Down
DROP TABLE jobs;
DROP TABLE rate_limits;
DROP TABLE recovery_tokens;
DROP TABLE refresh_tokens;
DROP TABLE profiles;
DROP TABLE users;

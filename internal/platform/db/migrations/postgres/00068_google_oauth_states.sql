-- +goose Up
-- One started "Conectar Google Agenda" (issue 42 §3): the state sent to
-- Google is kept only as its SHA-256 (state_hash), bound to the owner and
-- the professional it connects, with the PKCE code verifier sealed; it
-- expires after ten minutes and is deleted when used, so it is good once.
CREATE TABLE google_oauth_states (
    state_hash      TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT NOT NULL REFERENCES professionals(id) ON DELETE CASCADE,
    verifier_sealed TEXT NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX google_oauth_states_user ON google_oauth_states (user_id);

-- +goose Down
DROP TABLE google_oauth_states;

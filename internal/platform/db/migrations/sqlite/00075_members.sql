-- +goose Up
-- Issue 43 §0: each professional of a practice signs in as themself. A
-- professional's account is a users row with owner_id set (the practice it
-- belongs to; NULL for an owner), so sign-in, refresh, sign-out, password
-- reset and recovery are the owner's own code. members ties a professional
-- of the team to that account: invited by the owner (a one-time link by
-- e-mail, stored hashed), active once the professional set a password,
-- revoked by the owner (the account's sessions end at once). Deleting the
-- professional deletes the row; auth deletes the account with it.
ALTER TABLE users ADD COLUMN owner_id TEXT REFERENCES users(id) ON DELETE CASCADE;

CREATE TABLE members (
    professional_id   TEXT PRIMARY KEY REFERENCES professionals(id) ON DELETE CASCADE,
    owner_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email             TEXT NOT NULL,
    user_id           TEXT UNIQUE REFERENCES users(id) ON DELETE SET NULL,
    invite_hash       TEXT UNIQUE,
    invite_expires_at TIMESTAMP,
    state             TEXT NOT NULL CHECK (state IN ('invited', 'active', 'revoked')),
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);
CREATE INDEX members_owner ON members (owner_id);
CREATE INDEX users_owner ON users (owner_id) WHERE owner_id IS NOT NULL;

-- +goose Down
DROP INDEX users_owner;
DROP TABLE members;
DELETE FROM users WHERE owner_id IS NOT NULL;
ALTER TABLE users DROP COLUMN owner_id;

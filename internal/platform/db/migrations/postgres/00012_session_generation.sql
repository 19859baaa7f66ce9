-- +goose Up
-- Access tokens are checked against the database on every owner request
-- (through a one-second cache per process), so that signing out everywhere,
-- a password reset or recovery, and deleting the account end them at once on
-- every instance instead of after their 15 minutes. Each token carries the
-- account's session generation when it was issued: those four actions add
-- one to it, and a token of an older generation is refused. A counter, not a
-- "valid after" instant, so that the order of a revoke and a new sign-in never
-- depends on two instances' clocks or on both falling in the same instant.
ALTER TABLE users ADD COLUMN session_generation INTEGER NOT NULL DEFAULT 0;
-- A token also names its sign-in (refresh family): once any refresh token of
-- the family is revoked (this device signed out, or a replayed token was
-- caught), the family's access tokens are refused too. This index answers
-- "is the family revoked?" without walking every rotation of it.
CREATE INDEX refresh_tokens_revoked_family ON refresh_tokens (family_id) WHERE revoked_at IS NOT NULL;

-- +goose Down
DROP INDEX refresh_tokens_revoked_family;
ALTER TABLE users DROP COLUMN session_generation;

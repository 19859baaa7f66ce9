-- +goose Up
-- "Conectar Mercado Pago" (issue 41 §3): an owner connects through the
-- operator's Mercado Pago application (OAuth authorization code with PKCE)
-- instead of pasting a token. auth says how the row was made ('manual':
-- the owner pasted an Access Token and a webhook secret; 'oauth': the
-- button). An OAuth connection keeps, sealed like the access token, the
-- refresh token that renews it (refresh_token_sealed, '' for a manual
-- one), the access token's expiry, and the account's public key;
-- refresh_failed_at is set when Mercado Pago refused a renewal for good:
-- the owner must connect again (the card says so). renewing_until is a
-- renewal's claim: the instance renewing calls Mercado Pago outside any
-- transaction, and no other starts one until the claim ends. Its
-- webhook_secret_sealed seals '' — its notices come to the operator's
-- webhook, signed with the application's secret from the configuration.
ALTER TABLE mercadopago_accounts ADD COLUMN auth TEXT NOT NULL DEFAULT 'manual';
ALTER TABLE mercadopago_accounts ADD COLUMN refresh_token_sealed TEXT NOT NULL DEFAULT '';
ALTER TABLE mercadopago_accounts ADD COLUMN token_expires_at TIMESTAMP;
ALTER TABLE mercadopago_accounts ADD COLUMN public_key TEXT NOT NULL DEFAULT '';
ALTER TABLE mercadopago_accounts ADD COLUMN refresh_failed_at TIMESTAMP;
ALTER TABLE mercadopago_accounts ADD COLUMN renewing_until TIMESTAMP;
CREATE INDEX mercadopago_accounts_renewal ON mercadopago_accounts (token_expires_at) WHERE auth = 'oauth' AND refresh_failed_at IS NULL;

-- One started "Conectar Mercado Pago": the state sent to Mercado Pago is
-- kept only as its SHA-256 (state_hash), bound to the owner who started
-- it, with the PKCE code verifier sealed; it expires after ten minutes
-- and is deleted when used, so it is good once.
CREATE TABLE mercadopago_oauth_states (
    state_hash      TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    verifier_sealed TEXT NOT NULL,
    expires_at      TIMESTAMP NOT NULL,
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX mercadopago_oauth_states_user ON mercadopago_oauth_states (user_id);

-- +goose Down
DROP TABLE mercadopago_oauth_states;
DROP INDEX mercadopago_accounts_renewal;
ALTER TABLE mercadopago_accounts DROP COLUMN renewing_until;
ALTER TABLE mercadopago_accounts DROP COLUMN refresh_failed_at;
ALTER TABLE mercadopago_accounts DROP COLUMN public_key;
ALTER TABLE mercadopago_accounts DROP COLUMN token_expires_at;
ALTER TABLE mercadopago_accounts DROP COLUMN refresh_token_sealed;
ALTER TABLE mercadopago_accounts DROP COLUMN auth;

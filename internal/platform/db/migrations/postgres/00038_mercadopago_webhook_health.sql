-- +goose Up
-- What the owner's Mercado Pago webhook last heard: a notice whose
-- x-signature verified (last_valid_at) and one whose did not
-- (last_refused_at). A refusal newer than the last valid notice usually
-- means the secret signature kept on the profile is not the application's:
-- the profile says so. Kept apart from the account so a notice does not
-- bump the owner's data version.
CREATE TABLE mercadopago_webhook_health (
    user_id         TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    last_valid_at   TIMESTAMPTZ,
    last_refused_at TIMESTAMPTZ
);

-- +goose Down
DROP TABLE mercadopago_webhook_health;

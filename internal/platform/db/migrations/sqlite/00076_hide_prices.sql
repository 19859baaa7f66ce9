-- +goose Up
-- Issue 43 §3: "Ocultar preços na página pública". The councils' codes of
-- ethics forbid price as advertising (CFP's art. 20), so an owner may keep
-- the public page, the booking form and their answers free of prices: the
-- public profile answer then carries none, and the page says "Valor
-- informado no atendimento". A profiles column, so its writes bump the
-- owner's data version (profiles_version_update) and cached public answers
-- follow it.
ALTER TABLE profiles ADD COLUMN hide_prices BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE profiles DROP COLUMN hide_prices;

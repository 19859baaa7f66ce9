-- +goose Up
-- The e-mail the owner chose to show on the public page; empty shows none.
-- The public page never shows profiles.email (the account's e-mail).
ALTER TABLE profiles ADD COLUMN contact_email TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE profiles DROP COLUMN contact_email;

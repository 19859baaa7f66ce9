-- +goose Up
-- Meta's Embedded Signup (issue 41 §2): an owner's number connected with
-- "Conectar meu WhatsApp" is a whatsapp_accounts row like a manual one, its
-- business token sealed as the manual token is. signup marks it: its events
-- reach the operator app's webhook (routed by phone_number_id), not the
-- owner's own URL. pin_sealed keeps the two-step verification PIN Agendei
-- registered the number with (sealed), when the owner typed none.
ALTER TABLE whatsapp_accounts ADD COLUMN signup INTEGER NOT NULL DEFAULT 0;
ALTER TABLE whatsapp_accounts ADD COLUMN pin_sealed TEXT NOT NULL DEFAULT '';
CREATE INDEX whatsapp_accounts_phone ON whatsapp_accounts (phone_number_id);

-- +goose Down
DROP INDEX whatsapp_accounts_phone;
ALTER TABLE whatsapp_accounts DROP COLUMN pin_sealed;
ALTER TABLE whatsapp_accounts DROP COLUMN signup;

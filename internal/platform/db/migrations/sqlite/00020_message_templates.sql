-- +goose Up
-- The owner's WhatsApp message templates (confirmation, reminder,
-- reschedule), with {nome}, {data}, {hora}, {servico}, {profissional} and
-- {link}; empty: the default text.
ALTER TABLE profiles ADD COLUMN msg_confirmation TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN msg_reminder TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN msg_reschedule TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE profiles DROP COLUMN msg_reschedule;
ALTER TABLE profiles DROP COLUMN msg_reminder;
ALTER TABLE profiles DROP COLUMN msg_confirmation;

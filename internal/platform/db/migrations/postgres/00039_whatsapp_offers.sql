-- +goose Up
-- Waitlist offers by WhatsApp (issue 28, point 2): a WhatsApp message is
-- about an appointment or about a waitlist offer (the claim link of a
-- freed time), so that an offer's message has the same idempotency key,
-- lease, retries, statuses and monthly count as every other.
ALTER TABLE whatsapp_messages ALTER COLUMN appointment_id DROP NOT NULL;
ALTER TABLE whatsapp_messages ADD COLUMN offer_id TEXT REFERENCES waitlist_offers(id) ON DELETE CASCADE;
CREATE INDEX whatsapp_messages_offer ON whatsapp_messages (offer_id) WHERE offer_id IS NOT NULL;

-- +goose Down
DROP INDEX whatsapp_messages_offer;
DELETE FROM whatsapp_messages WHERE appointment_id IS NULL;
ALTER TABLE whatsapp_messages DROP COLUMN offer_id;
ALTER TABLE whatsapp_messages ALTER COLUMN appointment_id SET NOT NULL;

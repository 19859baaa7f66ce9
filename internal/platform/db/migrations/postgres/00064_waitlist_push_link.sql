-- +goose Up
-- A waitlist offer goes by push besides WhatsApp or e-mail (issue 41 §4).
-- WhatsApp's message mints the offer's claim link afresh as it sends (the
-- link is kept only as a hash), which would leave a notification's link
-- dead: the notification carries a link of its own, kept here as its
-- SHA-256 (NULL: the offer was pushed to no browser). Either link claims
-- the one offer, once.
ALTER TABLE waitlist_offers ADD COLUMN push_token_hash TEXT;
CREATE UNIQUE INDEX waitlist_offers_push_token ON waitlist_offers (push_token_hash);

-- +goose Down
DROP INDEX waitlist_offers_push_token;
ALTER TABLE waitlist_offers DROP COLUMN push_token_hash;

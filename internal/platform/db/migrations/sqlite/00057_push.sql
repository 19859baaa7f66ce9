-- +goose Up
-- Web push (issue 41, point 4): a client's browser subscribed, on the
-- confirmation card or their private page, to reminders and notices of
-- their appointments with one owner. Tied to the owner and the client by
-- reference (client_key, the appointment it was made from), never by text.
-- endpoint is the push service's URL for that browser (its host on the
-- allow-list); p256dh and auth are the browser's keys the payload is
-- encrypted to (RFC 8291). A subscription the push service says is gone
-- (404, 410) is deleted; an LGPD erase deletes the client's.
CREATE TABLE push_subscriptions (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_key     TEXT NOT NULL,
    appointment_id TEXT REFERENCES appointments(id) ON DELETE SET NULL,
    endpoint       TEXT NOT NULL,
    p256dh         TEXT NOT NULL,
    auth           TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    UNIQUE (user_id, endpoint)
);
CREATE INDEX push_subscriptions_client ON push_subscriptions (user_id, client_key, created_at);

-- One row per message per subscription: idem_key is the message's
-- (appointment, message, time), the same as e-mail's and WhatsApp's; the
-- row is written with the job that sends it, so a reminder run twice
-- queues it once, and a send that finds it sent stops.
-- state: queued, sent, failed.
CREATE TABLE push_deliveries (
    subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
    idem_key        TEXT NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    appointment_id  TEXT REFERENCES appointments(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    state           TEXT NOT NULL,
    error           TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL,
    sent_at         TIMESTAMP,
    PRIMARY KEY (subscription_id, idem_key)
);
CREATE INDEX push_deliveries_appointment ON push_deliveries (appointment_id);

-- +goose Down
DROP TABLE push_deliveries;
DROP TABLE push_subscriptions;

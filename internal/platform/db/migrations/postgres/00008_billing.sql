-- +goose Up
-- One subscription per owner. Only the billing provider's confirmation (the
-- local test checkout, or a signed Stripe webhook) makes it active.
CREATE TABLE subscriptions (
    user_id              TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    provider             TEXT NOT NULL,            -- local | stripe
    status               TEXT NOT NULL,            -- active | canceled | past_due | incomplete
    current_period_end   TIMESTAMPTZ NOT NULL,
    cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE,
    customer_ref         TEXT NOT NULL DEFAULT '', -- the provider's customer id
    subscription_ref     TEXT NOT NULL DEFAULT '', -- the provider's subscription id
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);

CREATE TABLE checkouts (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider   TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open',         -- open | paid
    created_at TIMESTAMPTZ NOT NULL
);

-- Provider events already applied, so a repeated webhook changes nothing.
CREATE TABLE billing_events (
    id         TEXT PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE billing_events;
DROP TABLE checkouts;
DROP TABLE subscriptions;

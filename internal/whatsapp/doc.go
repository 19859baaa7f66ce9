// Package whatsapp sends an owner's confirmations and reminders from their
// own number through the WhatsApp Business Platform (Cloud API) and takes
// their clients' answers back by webhook (issue 28, point 2).
//
// The owner connects their WhatsApp Business Account on the profile; the
// token and app secret are kept sealed (platform/secretbox). Agendei
// creates its templates in that account and sends a message only with an
// APPROVED template; until then, and whenever a message fails for good,
// the client gets the e-mail instead. Messages go out from the durable
// outbox (jobs) with an idempotency key per (appointment, kind, time).
// Delivery statuses and quick-reply answers arrive at a per-owner webhook,
// checked with X-Hub-Signature-256 before anything is read.
package whatsapp

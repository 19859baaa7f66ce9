// Package mercadopago confirms Pix deposits (sinais) automatically through
// the owner's own Mercado Pago account (issue 29, point 4).
//
// The owner connects on the profile with their production Access Token and
// the webhook's secret signature ("assinatura secreta"); both are kept
// sealed (platform/secretbox) and never returned. The token is checked with
// a live call (GET /users/me) before it is kept, and the account must be a
// Brazilian one (site MLB): Pix exists only there.
//
// For a booking with a deposit Agendei creates one Pix payment (POST
// /v1/payments, payment_method_id "pix") with the booking's reference as
// external_reference, the hold's expiry as date_of_expiration and an
// X-Idempotency-Key of its own, so a retry never makes a second charge,
// and shows the payment's QR code and copy-and-paste text. Mercado Pago
// notifies the owner's webhook (/webhooks/mercadopago/{key}); the
// x-signature is checked as Mercado Pago documents it before anything is
// read, stale timestamps are refused, and the payment is then read through
// the API — the notification's body is never trusted for its status.
//
// Why not Mercado Pago's Go SDK (github.com/mercadopago/sdk-go, v1.8.0 on
// the proxy): it draws a fresh random X-Idempotency-Key for every POST,
// with no way for the caller to give its own, so a create retried after a
// time-out could charge the client twice; and each of its clients has the
// API's origin as a constant, so tests could not point it at the fake
// without rewriting its requests. The three calls Agendei makes are small
// enough to type here over net/http.
package mercadopago

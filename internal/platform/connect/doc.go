// Package connect is the kit an owner's connection to an outside provider
// (WhatsApp, Mercado Pago, a professional's calendars) stands
// on, so that each provider writes only what is its own:
//
//   - Accounts: the sealed account's life-cycle over a small Provider
//     description (which fields, which are secret, the provider's checks):
//     load with the secrets opened, connect keeping a stored secret whose
//     field was left empty, disconnect, and the plain view the profile shows.
//     Secrets are sealed at rest by platform/secretbox, bound to the owner
//     and the field.
//   - Rows: the sealed account of connections that belong to something
//     inside the owner's account — a professional's calendars, several per
//     owner, one row each keyed by its id. The owner is the seal's context,
//     with the row's scope and the field ("<owner>:<name>.<scope>.<field>"),
//     so a seal copied to another row never opens; Job reads a row by its id
//     with its secrets opened, for the background job that holds only the id.
//   - Client: a typed JSON client (Bearer token, idempotency header,
//     bounded answer) whose errors say Auth() or Temporary().
//   - Health: what a provider's webhook last heard (a valid notice, a
//     refused one), kept apart from the account so a notice does not bump
//     the owner's data version. Reads is its twin for connections a job
//     reads on a schedule, per row: the last read that worked, the last
//     error in pt-BR, since when it fails (Worked, Failed, Restart); the
//     domain's list reads those columns in its own query.
//   - connecttest: the base of the in-process fakes of each provider (the
//     request count, the requests the provider's documentation forbids, the
//     queued failures).
//
// It knows no provider: each domain package (whatsapp, mercadopago)
// describes itself and keeps its own calls, texts and webhooks; calendars
// (ICS, CalDAV, Google) stands on Rows, Reads and Client.
// CONTRIBUTING.md ("Adicionar um provedor") walks through adding one.
package connect

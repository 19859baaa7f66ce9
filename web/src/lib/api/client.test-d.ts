// Type test (checked by `npm run typecheck`, never run): the typed client must
// refuse calls the contract does not allow. Each @ts-expect-error fails tsc
// if its line ever type-checks, i.e. if the typing loosens.
import { request } from './client'

export async function typeTests() {
  // Allowed: a declared path, method, parameters and answer fields.
  const me = await request('get', '/api/me', { auth: true })
  me.email.toLowerCase()
  const a = await request('patch', '/api/appointments/{id}', { path: { id: 'x' }, body: { status: 'cancelled' }, auth: true })
  a.date.toString()
  await request('get', '/api/appointments', { query: { from: '2026-01-01', to: '2026-01-31' }, auth: true })

  // @ts-expect-error a path the contract does not declare
  await request('get', '/api/appointmentz', { auth: true })
  // @ts-expect-error a method the path does not have
  await request('delete', '/api/me', { auth: true })
  // @ts-expect-error a body field the operation does not take
  await request('patch', '/api/appointments/{id}', { path: { id: 'x' }, body: { stauts: 'cancelled' }, auth: true })
  // @ts-expect-error a missing path parameter
  await request('get', '/api/appointments/{id}', { auth: true })
  // @ts-expect-error a body value outside the contract's enum
  await request('patch', '/api/appointments/{id}', { path: { id: 'x' }, body: { status: 'lost' }, auth: true })
  // @ts-expect-error a response field the answer does not have
  me.nickname.toString()
}

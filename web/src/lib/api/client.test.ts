import { afterEach, expect, it, vi } from 'vitest'
import { ApiError, errorMessage, NetworkError, request, urlOf } from './client'

afterEach(() => vi.unstubAllGlobals())

it('fills path parameters encoded and leaves empty query values out', () => {
  expect(urlOf('/api/public/profiles/{username}/days', { path: { username: 'ana maria/1' }, query: { month: '2026-11', professional: '', service: 's1' } })).toBe(
    '/api/public/profiles/ana%20maria%2F1/days?month=2026-11&service=s1',
  )
  expect(urlOf('/api/clients', { query: { limit: 50, offset: 0 } })).toBe('/api/clients?limit=50&offset=0')
  expect(urlOf('/api/me')).toBe('/api/me')
})

it('sends the method and JSON body, and returns the answer', async () => {
  const fetch = vi.fn(async () => new Response(JSON.stringify({ id: 'a1', status: 'cancelled' }), { status: 200 }))
  vi.stubGlobal('fetch', fetch)
  const a = await request('patch', '/api/appointments/{id}', { path: { id: 'a1' }, body: { status: 'cancelled' } })
  expect(a.status).toBe('cancelled')
  const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
  expect(url).toBe('/api/appointments/a1')
  expect(init.method).toBe('PATCH')
  expect(JSON.parse(String(init.body))).toEqual({ status: 'cancelled' })
})

it("raises the server's pt-BR message as an ApiError", async () => {
  const body = { error: { code: 'slot_taken', message: 'Este horário acabou de ser reservado.' } }
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 409 })))
  const err = await request('get', '/api/me').catch((e: unknown) => e)
  expect(err).toBeInstanceOf(ApiError)
  expect(err).toMatchObject({ status: 409, code: 'slot_taken' })
  expect(errorMessage(err, 'fallback')).toBe('Este horário acabou de ser reservado.')
  expect(errorMessage(new NetworkError(), 'fallback')).toBe('Erro de conexão. Tente novamente.')
  expect(errorMessage(new TypeError('x'), 'fallback')).toBe('fallback')
})

import { fireEvent, screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { AccountDataCard } from './AccountDataCard'

afterEach(() => vi.unstubAllGlobals())

function setup(reply: { status: number; body?: unknown }) {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/account/data') return reply
    return undefined
  })
  const saved: string[] = []
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:copia', revokeObjectURL: () => {} }))
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download)
  })
  renderRoutes([{ path: '/profile', Component: AccountDataCard }], '/profile')
  return { calls, saved, click }
}

it('"Baixar meus dados" fetches the owner’s copy with their sign-in and saves it as a file', async () => {
  const { calls, saved } = setup({ status: 200, body: { geradoEm: '2026-11-28T12:00:00Z', conta: {} } })
  fireEvent.click(await screen.findByRole('button', { name: 'Baixar meus dados' }))
  await vi.waitFor(() => expect(saved).toEqual(['meus-dados-agendei.json']))
  const call = calls.find((c) => c.url === '/api/account/data')!
  expect(call.method).toBe('GET')
  expect(call.headers.Authorization).toBe('Bearer token-1')
})

it('a copy that fails says so in pt-BR and saves nothing', async () => {
  const { saved } = setup({ status: 500, body: { error: { code: 'internal', message: 'Erro interno. Tente novamente.' } } })
  fireEvent.click(await screen.findByRole('button', { name: 'Baixar meus dados' }))
  expect(await screen.findByText('Erro interno. Tente novamente.')).toBeInTheDocument()
  expect(saved).toEqual([])
})

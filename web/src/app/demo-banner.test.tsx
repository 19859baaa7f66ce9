import { screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { routes } from './router'

afterEach(() => vi.unstubAllGlobals())

const signedIn = (demo: boolean) =>
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana Souza' } }
    if (c.url === '/api/config') return { status: 200, body: { supportEmail: 'suporte@agendei.app', supportWhatsapp: '5511999999999', demo } }
    return undefined
  })

it('warns the owner app when the server runs on the demo database', async () => {
  signedIn(true)
  renderRoutes(routes, '/dashboard')
  expect(await screen.findByText('Banco de demonstração: não use em produção.', {}, { timeout: 10_000 })).toBeInTheDocument()
})

it('shows no demo banner on a real database', async () => {
  signedIn(false)
  renderRoutes(routes, '/dashboard')
  expect(await screen.findByText('Olá, Ana Souza!', {}, { timeout: 10_000 })).toBeInTheDocument()
  expect(screen.queryByText('Banco de demonstração: não use em produção.')).toBeNull()
})

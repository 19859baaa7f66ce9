import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { routes } from './router'

afterEach(() => vi.unstubAllGlobals())

const professional = { ...session, user: { ...session.user, email: 'paula@example.com', role: 'professional' } }

// A professional signed in as themself (issue 43): their agenda and clients, nothing of the owner's.
function asProfessional(calls?: (c: FetchCall) => void) {
  return stubFetch((c) => {
    calls?.(c)
    if (c.url === '/api/auth/refresh') return { status: 200, body: professional }
    if (c.url.startsWith('/api/clients')) return { status: 200, body: { clients: [], total: 0 } }
    return undefined
  })
}

it("sends a professional from the owner's pages to their agenda, with only the agenda, the clients and their records to open", async () => {
  const calls = asProfessional()
  const router = renderRoutes(routes, '/dashboard')
  await waitFor(() => expect(router.state.location.pathname).toBe('/agenda'), { timeout: 10_000 })
  await userEvent.click(await screen.findByRole('button', { name: 'Abrir menu' }))
  const menu = screen.getByRole('navigation', { name: 'Menu' })
  expect(within(menu).getAllByRole('link').map((l) => l.textContent)).toEqual(['Agenda', 'Clientes', 'Prontuários'])
  expect(screen.queryByRole('link', { name: /Notificações/ })).not.toBeInTheDocument()
  for (const path of ['/profile', '/reports', '/professionals', '/services', '/configure-hours', '/notifications']) {
    await router.navigate(path)
    await waitFor(() => expect(router.state.location.pathname).toBe('/agenda'))
  }
  // Their records are theirs to open.
  await router.navigate('/prontuarios')
  expect(await screen.findByRole('heading', { name: 'Prontuários', level: 1 })).toBeInTheDocument()
  expect(router.state.location.pathname).toBe('/prontuarios')
  // Their agenda stays live (the server sends them their own agenda's events only)…
  expect(calls.some((c) => c.url === '/api/events')).toBe(true)
  // …and nothing of the owner's is asked: no bell, no settings.
  for (const owner of ['/api/notifications', '/api/dashboard', '/api/profile', '/api/whatsapp', '/api/waitlist', '/api/blocks']) {
    expect(calls.some((c) => c.url === owner || c.url.startsWith(owner + '?'))).toBe(false)
  }
})

it("shows a professional their clients without the owner's export", async () => {
  asProfessional()
  renderRoutes(routes, '/clients')
  expect(await screen.findByRole('heading', { name: 'Clientes' }, { timeout: 10_000 })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: /Exportar CSV/ })).not.toBeInTheDocument()
})

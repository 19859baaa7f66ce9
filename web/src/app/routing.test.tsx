import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { routes } from './router'

afterEach(() => vi.unstubAllGlobals())

it('sends a signed-out visitor of a protected page to /login', async () => {
  stubFetch(() => undefined)
  const router = renderRoutes(routes, '/agenda')
  // The first test of the file loads the lazy routes' modules cold: give it time under a busy machine.
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 10_000 })
})

it('restores the session and greets the owner by name', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana Souza' } }
    return undefined
  })
  renderRoutes(routes, '/dashboard')
  expect(await screen.findByText('Olá, Ana Souza!')).toBeInTheDocument()
})

it('falls back to "Usuário" when the profile has no name', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: '' } }
    return undefined
  })
  renderRoutes(routes, '/dashboard')
  expect(await screen.findByText('Olá, Usuário!')).toBeInTheDocument()
})

it('shows the 404 page with a link home for unknown paths', async () => {
  stubFetch(() => undefined)
  renderRoutes(routes, '/nao-existe')
  expect(await screen.findByText('Página não encontrada')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Voltar para o início' })).toHaveAttribute('href', '/')
})

it('persists dark mode and toggles the class on the root', async () => {
  stubFetch(() => undefined)
  renderRoutes(routes, '/')
  const toggle = (await screen.findAllByRole('button', { name: 'Alternar tema' }))[0]
  await userEvent.setup().click(toggle)
  expect(document.documentElement).toHaveClass('dark')
  expect(localStorage.getItem('darkMode')).toBe('true')
})

it('disables account deletion until both fields are filled and requires EXCLUIR', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana' } }
    return undefined
  })
  renderRoutes(routes, '/profile')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Excluir conta' }))
  const confirm = screen.getByRole('button', { name: 'Excluir minha conta' })
  expect(confirm).toBeDisabled()
  await user.type(screen.getByLabelText('Senha'), 'segredo1')
  expect(confirm).toBeDisabled()
  await user.type(screen.getByLabelText('Digite EXCLUIR para confirmar'), 'excluir')
  expect(confirm).toBeEnabled()
  await user.click(confirm)
  expect(await screen.findByText('Confirmação inválida')).toBeInTheDocument()
  expect(calls.some((c) => c.url === '/api/account')).toBe(false)
})

it('loads a public profile for a visitor without a session', async () => {
  stubFetch((c) => {
    // The session lookup answers after the page has started loading its data.
    if (c.url === '/api/auth/refresh') return { status: 401, body: { error: { code: 'unauthorized', message: 'x' } }, delayMs: 500 }
    if (c.url === '/api/public/profiles/ana')
      return {
        status: 200,
        delayMs: 1500,
        body: {
          username: 'ana', name: 'Clínica Ana', area: 'Psicologia', description: '', photoUrl: '', contactEmail: '', phone: '', website: '',
          instagram: '', linkedin: '', whatsapp: '', professionals: [],
          services: [{ id: 's1', name: 'Consulta', description: null, duration: 50, priceCents: 15000, professionalIds: [] }],
        },
      }
    return undefined
  })
  renderRoutes(routes, '/agende/ana')
  expect(await screen.findByRole('heading', { name: 'Clínica Ana' }, { timeout: 4000 })).toBeInTheDocument()
  expect(screen.getByText('R$ 150,00')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: /Consulta/ })).toHaveAttribute('href', '/agende/ana/form?service=s1')
})

it('lists "Horários e regras" (hours, days off, holidays, booking rules) in the main menu', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/me') return { status: 200, body: { id: session.user.id, email: session.user.email, name: 'Ana' } }
    return undefined
  })
  renderRoutes(routes, '/dashboard')
  const menu = await screen.findByRole('navigation', { name: 'Principal' })
  expect(within(menu).getByRole('link', { name: 'Horários e regras' })).toHaveAttribute('href', '/configure-hours')
})

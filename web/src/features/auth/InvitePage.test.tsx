import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { routes } from '@/app/router'

afterEach(() => vi.unstubAllGlobals())

it('shows an unknown or used invitation as such, with nothing to fill in', async () => {
  stubFetch((c) =>
    c.url === '/api/invites/tok-velho'
      ? { status: 404, body: { error: { code: 'invite_invalid', message: 'Este convite é inválido, já foi usado ou expirou. Peça um novo convite ao titular da agenda.' } } }
      : undefined,
  )
  renderRoutes(routes, '/convite/tok-velho')
  expect(await screen.findByText('Convite inválido', {}, { timeout: 10_000 })).toBeInTheDocument()
  expect(screen.getByText(/já foi usado ou expirou/)).toBeInTheDocument()
  expect(screen.queryByLabelText('Senha')).not.toBeInTheDocument()
})

it('creates the professional’s own access with the button, never on opening, and opens their agenda', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/invites/tok-1' && c.method === 'GET') return { status: 200, body: { practice: 'Clínica Ana', professional: 'Paula Lima', email: 'paula@example.com' } }
    if (c.url === '/api/invites/tok-1' && c.method === 'POST') return { status: 200, body: { ...session, user: { ...session.user, role: 'professional' } } }
    return undefined
  })
  const router = renderRoutes(routes, '/convite/tok-1')
  expect(await screen.findByText(/Paula Lima, você foi convidado\(a\) para a agenda de Clínica Ana/, {}, { timeout: 10_000 })).toBeInTheDocument()
  expect(calls.some((c) => c.method === 'POST' && c.url.startsWith('/api/invites'))).toBe(false)
  await userEvent.type(screen.getByLabelText('Senha'), 'senha-123')
  await userEvent.type(screen.getByLabelText('Confirmar senha'), 'senha-123')
  await userEvent.type(screen.getByLabelText('Palavra-chave de recuperação'), 'jabuti')
  await userEvent.click(screen.getByRole('button', { name: 'Criar meu acesso' }))
  await waitFor(() => expect(router.state.location.pathname).toBe('/agenda'))
  expect(calls.find((c) => c.method === 'POST' && c.url === '/api/invites/tok-1')?.body).toEqual({ password: 'senha-123', recoveryKeyword: 'jabuti' })
})

import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { routes } from '@/app/router'

afterEach(() => vi.unstubAllGlobals())

const paula = { id: 'p1', name: 'Paula Lima', specialization: 'Psicóloga', email: 'paula@example.com', photoUrl: '', active: true, createdAt: '2026-11-01T10:00:00Z', updatedAt: '2026-11-01T10:00:00Z' }

function owner(members: unknown[]) {
  return stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/professionals') return { status: 200, body: [paula] }
    if (c.url === '/api/members' && c.method === 'GET') return { status: 200, body: { members } }
    if (c.url === '/api/members/p1' && c.method === 'PUT') return { status: 200, body: { professionalId: 'p1', email: (c.body as { email: string }).email, state: 'invited', expiresAt: '2026-12-05T12:00:00Z' } }
    if (c.url === '/api/members/p1' && c.method === 'DELETE') return { status: 200, body: { success: true } }
    return undefined
  })
}

it('invites a professional by e-mail and says it was sent only once the server queued it', async () => {
  const calls = owner([])
  renderRoutes(routes, '/professionals')
  await userEvent.click(await screen.findByRole('button', { name: 'Convidar para entrar: Paula Lima' }, { timeout: 10_000 }))
  const email = screen.getByLabelText('E-mail do profissional')
  expect(email).toHaveValue('paula@example.com')
  await userEvent.clear(email)
  await userEvent.type(email, 'paula.lima@example.com')
  await userEvent.click(screen.getByRole('button', { name: 'Enviar convite' }))
  expect(await screen.findByText('Convite enviado')).toBeInTheDocument()
  expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ email: 'paula.lima@example.com' })
})

it('ends an access only after the owner confirms it', async () => {
  const calls = owner([{ professionalId: 'p1', email: 'paula@example.com', state: 'active' }])
  renderRoutes(routes, '/professionals')
  expect(await screen.findByText('Entra com o próprio acesso', {}, { timeout: 10_000 })).toBeInTheDocument()
  await userEvent.click(screen.getByRole('button', { name: 'Encerrar acesso' }))
  expect(await screen.findByText('Encerrar o acesso de Paula Lima?')).toBeInTheDocument()
  expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
  await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }))
  expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
  await userEvent.click(screen.getByRole('button', { name: 'Encerrar acesso' }))
  const dialog = await screen.findByRole('alertdialog')
  await userEvent.click(within(dialog).getByRole('button', { name: 'Encerrar acesso' }))
  await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/members/p1')).toBe(true))
})

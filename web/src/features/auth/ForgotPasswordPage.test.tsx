import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, NetworkError } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import ForgotPasswordPage, { resetOutcome } from './ForgotPasswordPage'

afterEach(() => vi.unstubAllGlobals())

describe('resetOutcome', () => {
  it.each([
    ['keyword_not_configured', 'Palavra-chave não configurada', true],
    ['keyword_incorrect', 'Palavra-chave incorreta', false],
    ['email_not_found', 'E-mail não encontrado', false],
    ['keyword_locked', 'Erro na redefinição', true],
    ['rate_limited', 'Erro na redefinição', true],
  ])('%s → %s', (code, title, alternatives) => {
    const out = resetOutcome(new ApiError(400, code, 'msg'))
    expect(out.title).toBe(title)
    expect(out.alternatives).toBe(alternatives)
  })
  it('network failures say so', () => {
    expect(resetOutcome(new NetworkError()).message).toBe('Erro de conexão. Tente novamente.')
  })
})

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('E-mail'), 'ana@example.com')
  await user.type(screen.getByLabelText('Palavra-chave de recuperação'), 'errada')
  await user.type(screen.getByLabelText('Nova senha'), 'novasenha')
  await user.type(screen.getByLabelText('Confirmar nova senha'), 'novasenha')
  await user.click(screen.getByRole('button', { name: 'Redefinir senha' }))
}

it('after two wrong keywords offers the e-mailed link, which it requests', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/password-reset') return { status: 401, body: { error: { code: 'keyword_incorrect', message: 'A palavra-chave de recuperação está incorreta.' } } }
    if (c.url === '/api/auth/account-recovery') return { status: 202, body: { success: true } }
    return undefined
  })
  renderRoutes([{ path: '/forgot-password', Component: ForgotPasswordPage }], '/forgot-password')
  const user = userEvent.setup()
  await fillAndSubmit(user)
  expect((await screen.findAllByText('Palavra-chave incorreta')).length).toBeGreaterThan(0)
  expect(screen.queryByText('Opções alternativas')).not.toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Redefinir senha' }))
  expect(await screen.findByText('Opções alternativas')).toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Enviar link por e-mail' }))
  expect(await screen.findByText(/o link foi enviado/)).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/auth/account-recovery')?.body).toEqual({ email: 'ana@example.com' })
})

it('validates the confirmation before calling the server', async () => {
  const calls = stubFetch(() => undefined)
  renderRoutes([{ path: '/forgot-password', Component: ForgotPasswordPage }], '/forgot-password')
  const user = userEvent.setup()
  await user.type(screen.getByLabelText('E-mail'), 'ana@example.com')
  await user.type(screen.getByLabelText('Palavra-chave de recuperação'), 'gato')
  await user.type(screen.getByLabelText('Nova senha'), 'novasenha')
  await user.type(screen.getByLabelText('Confirmar nova senha'), 'outrasenha')
  await user.click(screen.getByRole('button', { name: 'Redefinir senha' }))
  expect(await screen.findByText('A nova senha e a confirmação devem ser iguais.')).toBeInTheDocument()
  expect(calls.some((c) => c.url === '/api/auth/password-reset')).toBe(false)
})

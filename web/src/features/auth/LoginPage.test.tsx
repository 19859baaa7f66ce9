import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, stubFetch } from '@/test/render'
import LoginPage from './LoginPage'

afterEach(() => vi.unstubAllGlobals())

it('asks for both fields before calling the server', async () => {
  const calls = stubFetch(() => undefined)
  renderRoutes([{ path: '/login', Component: LoginPage }], '/login')
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Entrar' }))
  expect(await screen.findByText('Campos obrigatórios')).toBeInTheDocument()
  expect(screen.getByText('Por favor, preencha e-mail e senha.')).toBeInTheDocument()
  expect(calls.some((c) => c.url === '/api/auth/login')).toBe(false)
})

it('shows the login error toast with the server message', async () => {
  stubFetch((c) =>
    c.url === '/api/auth/login'
      ? { status: 401, body: { error: { code: 'invalid_credentials', message: 'E-mail ou senha incorretos. Verifique seus dados e tente novamente.' } } }
      : undefined,
  )
  renderRoutes([{ path: '/login', Component: LoginPage }], '/login')
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('E-mail'), 'ana@example.com')
  await user.type(screen.getByLabelText('Senha'), 'errada')
  await user.click(screen.getByRole('button', { name: 'Entrar' }))
  expect(await screen.findByText('Erro no login')).toBeInTheDocument()
  expect(screen.getByText('E-mail ou senha incorretos. Verifique seus dados e tente novamente.')).toBeInTheDocument()
})

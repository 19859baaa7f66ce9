import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import SignupPage, { signupProblem } from './SignupPage'

afterEach(() => vi.unstubAllGlobals())

describe('signupProblem', () => {
  const ok = { name: 'Ana', email: 'a@b.com', password: '123456', confirm: '123456', keyword: 'abc' }
  it.each([
    [{ ...ok, name: '  ' }, 'Por favor, preencha todos os campos obrigatórios.'],
    [{ ...ok, confirm: '654321' }, 'As senhas não coincidem.'],
    [{ ...ok, password: '12345', confirm: '12345' }, 'A senha deve ter pelo menos 6 caracteres.'],
    [{ ...ok, keyword: ' ab ' }, 'A palavra-chave de recuperação deve ter pelo menos 3 caracteres.'],
    [ok, null],
  ])('%o → %s', (form, want) => {
    expect(signupProblem(form)).toBe(want)
  })
})

describe('SignupPage', () => {
  it('sends trimmed values and lands on the dashboard', async () => {
    const calls = stubFetch((c) => (c.url === '/api/auth/signup' ? { status: 201, body: session } : undefined))
    const router = renderRoutes(
      [
        { path: '/signup', Component: SignupPage },
        { path: '/dashboard', element: <p>painel</p> },
      ],
      '/signup',
    )
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Nome completo'), '  Ana Souza ')
    await user.type(screen.getByLabelText('E-mail'), ' ana@example.com ')
    await user.type(screen.getByLabelText('Senha'), 'segredo1 ')
    await user.type(screen.getByLabelText('Confirmar senha'), 'segredo1 ')
    await user.type(screen.getByLabelText('Palavra-chave de recuperação'), ' gato ')
    await user.click(screen.getByRole('button', { name: 'Criar conta e começar teste grátis' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    const signup = calls.find((c) => c.url === '/api/auth/signup')!
    expect(signup.body).toEqual({ name: 'Ana Souza', email: 'ana@example.com', password: 'segredo1', recoveryKeyword: 'gato' })
    expect(signup.headers['X-Agendei-Client']).toBe('web')
  })

  it('shows the server message when the e-mail is taken', async () => {
    stubFetch((c) =>
      c.url === '/api/auth/signup' ? { status: 409, body: { error: { code: 'email_taken', message: 'Já existe uma conta com este e-mail.' } } } : undefined,
    )
    renderRoutes([{ path: '/signup', Component: SignupPage }], '/signup')
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Nome completo'), 'Ana')
    await user.type(screen.getByLabelText('E-mail'), 'ana@example.com')
    await user.type(screen.getByLabelText('Senha'), 'segredo1')
    await user.type(screen.getByLabelText('Confirmar senha'), 'segredo1')
    await user.type(screen.getByLabelText('Palavra-chave de recuperação'), 'gato')
    await user.click(screen.getByRole('button', { name: 'Criar conta e começar teste grátis' }))
    expect(await screen.findByText('Erro no cadastro')).toBeInTheDocument()
    expect(screen.getByText('Já existe uma conta com este e-mail.')).toBeInTheDocument()
  })
})

describe('SignupPage field errors', () => {
  it('marks each field the first broken rule is about, and moves on as they are fixed', async () => {
    const calls = stubFetch(() => undefined)
    renderRoutes([{ path: '/signup', Component: SignupPage }], '/signup')
    const user = userEvent.setup()
    const submit = screen.getByRole('button', { name: 'Criar conta e começar teste grátis' })
    await user.type(screen.getByLabelText('Nome completo'), 'Ana')
    await user.click(submit)
    expect(await screen.findByText('Por favor, preencha todos os campos obrigatórios.')).toBeInTheDocument()
    expect(screen.getAllByText('Campo obrigatório.')).toHaveLength(4)
    expect(screen.getByLabelText('Nome completo')).not.toHaveAttribute('aria-invalid')
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true')
    await user.type(screen.getByLabelText('E-mail'), 'ana@example.com')
    await user.type(screen.getByLabelText('Senha'), 'segredo1')
    await user.type(screen.getByLabelText('Confirmar senha'), 'segredo2')
    await user.type(screen.getByLabelText('Palavra-chave de recuperação'), 'gato')
    await waitFor(() => expect(screen.queryByText('Campo obrigatório.')).not.toBeInTheDocument())
    await user.click(submit)
    expect(await screen.findByText('Digite a mesma senha nos dois campos.')).toBeInTheDocument()
    expect(screen.getByText('As senhas não coincidem.')).toBeInTheDocument()
    expect(screen.getByLabelText('Confirmar senha')).toHaveAttribute('aria-invalid', 'true')
    expect(calls.some((c) => c.url === '/api/auth/signup')).toBe(false)
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { deleteSchema, profileFields, profileSchema } from './profile-form'
import ProfilePage from './ProfilePage'

afterEach(() => vi.unstubAllGlobals())

const profile = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', contactEmail: '', publicUsername: 'ana', area: 'Psicologia', description: '', phone: '',
  website: '', instagram: '', linkedin: '', whatsapp: '', photoUrl: '', timeZone: 'America/Sao_Paulo', trialEndsAt: null, createdAt: '2026-01-01T00:00:00Z',
  address: { street: '', number: '', complement: '', district: '', city: '', state: '', cep: '' }, addressLine: '', roomLink: '',
}

describe('profileSchema', () => {
  const ok = profileFields(profile)
  it.each([
    [{ name: ' ' }, 'name', 'Informe seu nome.'],
    [{ email: 'ana' }, 'email', 'Informe um e-mail válido.'],
    [{ contactEmail: 'contato@' }, 'contactEmail', 'Informe um e-mail de contato válido ou deixe o campo em branco.'],
    [{ publicUsername: 'a b' }, 'publicUsername', 'Use de 3 a 30 letras, números, ponto, hífen ou sublinhado.'],
    [{ area: '' }, 'area', 'Informe sua área de atuação.'],
    [{ cep: '0100-000' }, 'cep', 'CEP inválido. Use os 8 números, como 01001-000.'],
    [{ roomLink: 'http://meet.example.com/sala' }, 'roomLink', 'O link da videochamada deve começar com https:// (por exemplo, https://meet.google.com/abc-defg-hij).'],
  ])('%o is refused at %s', (change, field, message) => {
    const r = z.safeParse(profileSchema, { ...ok, ...change })
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[field, message]])
  })
})

describe('deleteSchema', () => {
  it('asks for the word in capitals and the password, and sends the confirmation', () => {
    expect(z.safeParse(deleteSchema, { word: 'excluir', password: 'x' }).error?.issues[0].path).toEqual(['word'])
    expect(z.safeParse(deleteSchema, { word: 'EXCLUIR', password: ' ' }).error?.issues[0].path).toEqual(['password'])
    expect(z.parse(deleteSchema, { word: 'EXCLUIR', password: ' segredo1 ' })).toEqual({ password: 'segredo1', confirmation: 'EXCLUIR' })
  })
})

describe('ProfilePage', () => {
  it('keeps a taken username beside its field and loses nothing typed', async () => {
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: profile }
      if (c.url === '/api/profile' && c.method === 'PUT') {
        return { status: 409, body: { error: { code: 'username_taken', message: 'Este nome de usuário já está sendo usado. Escolha outro.' } } }
      }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: ProfilePage }], '/profile')
    const user = userEvent.setup()
    const username = await screen.findByLabelText('Nome de usuário público')
    await user.clear(username)
    await user.type(username, 'bia')
    await user.type(screen.getByLabelText('Biografia'), 'Atendo adultos.')
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }))
    expect((await screen.findAllByText('Este nome de usuário já está sendo usado. Escolha outro.')).length).toBeGreaterThan(0)
    expect(username).toHaveAttribute('aria-invalid', 'true')
    expect(username).toHaveValue('bia')
    expect(screen.getByLabelText('Biografia')).toHaveValue('Atendo adultos.')
  })

  it('says before saving what a new time zone changes', async () => {
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: profile }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: ProfilePage }], '/profile')
    const user = userEvent.setup()
    const zone = await screen.findByLabelText('Fuso horário')
    const note = 'Os agendamentos mantêm a data e o horário locais; lembretes e calendários passam a seguir o novo fuso.'
    expect(screen.queryByText(note)).toBeNull()
    await user.selectOptions(zone, 'America/Manaus')
    expect(screen.getByRole('status')).toHaveTextContent(note)
    expect(zone).toHaveAccessibleDescription(note)
    await user.selectOptions(zone, 'America/Sao_Paulo')
    expect(screen.queryByText(note)).toBeNull()
  })
})

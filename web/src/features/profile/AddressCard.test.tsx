import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { formatCep, profileFields, profileSchema } from './profile-form'
import ProfilePage from './ProfilePage'

afterEach(() => vi.unstubAllGlobals())

const blank = { street: '', number: '', complement: '', district: '', city: '', state: '', cep: '' }
const profile = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', contactEmail: '', publicUsername: 'ana', area: 'Psicologia', description: '', phone: '',
  website: '', instagram: '', linkedin: '', whatsapp: '', photoUrl: '', timeZone: 'America/Sao_Paulo', trialEndsAt: null, createdAt: '2026-01-01T00:00:00Z',
  address: blank, addressLine: '', roomLink: '',
}
const config = (cepLookup: boolean) => ({ supportEmail: 'suporte@agendei.app', supportWhatsapp: '5511999999999', demo: false, cepLookup })
const se = { street: 'Praça da Sé', number: '', complement: '', district: 'Sé', city: 'São Paulo', state: 'SP', cep: '01001-000' }

function open(cepLookup: boolean, cep?: (c: FetchCall) => { status: number; body?: unknown; delayMs?: number }) {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/config') return { status: 200, body: config(cepLookup) }
    if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: profile }
    if (c.url === '/api/profile' && c.method === 'PUT') return { status: 200, body: { ...profile, address: (c.body as { address: typeof blank }).address } }
    if (c.url.startsWith('/api/cep/') && cep) return cep(c)
    return undefined
  })
  renderRoutes([{ path: '/profile', Component: ProfilePage }], '/profile')
  return calls
}

describe('the address form', () => {
  it('formats the CEP as 00000-000 and sends the address nested', () => {
    expect(formatCep('01001000')).toBe('01001-000')
    expect(formatCep('01.001-0009')).toBe('01001-000')
    expect(formatCep('0100')).toBe('0100')
    const body = z.parse(profileSchema, { ...profileFields(profile), street: ' Rua A ', city: 'Recife', state: 'PE', cep: '50000-000' })
    expect(body.address).toEqual({ ...blank, street: 'Rua A', city: 'Recife', state: 'PE', cep: '50000-000' })
  })

  it('fills street, bairro, city and UF from a valid CEP when the lookup is on', async () => {
    const calls = open(true, () => ({ status: 200, body: se }))
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('CEP'), '01001000')
    await waitFor(() => expect(screen.getByLabelText('Rua (logradouro)')).toHaveValue('Praça da Sé'))
    expect(screen.getByLabelText('CEP')).toHaveValue('01001-000')
    expect(screen.getByLabelText('Bairro')).toHaveValue('Sé')
    expect(screen.getByLabelText('Cidade')).toHaveValue('São Paulo')
    expect(screen.getByLabelText('UF')).toHaveValue('SP')
    expect(screen.getByText('Endereço preenchido pelo CEP. Confira e informe o número e o complemento.')).toBeInTheDocument()
    expect(calls.filter((c) => c.url.startsWith('/api/cep/')).map((c) => c.url)).toEqual(['/api/cep/01001000'])
  })

  it('asks nothing when the lookup is off, and the owner types the address', async () => {
    const calls = open(false)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('CEP'), '01001000')
    await user.type(screen.getByLabelText('Rua (logradouro)'), 'Rua das Flores')
    await user.type(screen.getByLabelText('Cidade'), 'São Paulo')
    await user.selectOptions(screen.getByLabelText('UF'), 'SP')
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }))
    await waitFor(() => expect(calls.some((c) => c.url === '/api/profile' && c.method === 'PUT')).toBe(true))
    expect(calls.some((c) => c.url.startsWith('/api/cep/'))).toBe(false)
    expect((calls.find((c) => c.url === '/api/profile' && c.method === 'PUT')?.body as { address: unknown }).address).toEqual({ ...blank, street: 'Rua das Flores', city: 'São Paulo', state: 'SP', cep: '01001-000' })
  })

  it('says when the lookup fails and still saves', async () => {
    const down = 'A busca de CEP não respondeu agora. Preencha o endereço à mão; você pode salvar normalmente.'
    const calls = open(true, () => ({ status: 503, body: { error: { code: 'cep_unavailable', message: down } } }))
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('CEP'), '01001000')
    expect(await screen.findByText(down)).toBeInTheDocument()
    await user.type(screen.getByLabelText('Rua (logradouro)'), 'Rua das Flores')
    await user.type(screen.getByLabelText('Cidade'), 'São Paulo')
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }))
    await waitFor(() => expect(calls.some((c) => c.url === '/api/profile' && c.method === 'PUT')).toBe(true))
  })

  it('refuses a CEP that is not 8 digits beside its field', async () => {
    const calls = open(false)
    const user = userEvent.setup()
    const cep = await screen.findByLabelText('CEP')
    await user.type(cep, '0100')
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }))
    expect(await screen.findByText('CEP inválido. Use os 8 números, como 01001-000.')).toBeInTheDocument()
    expect(cep).toHaveAttribute('aria-invalid', 'true')
    expect(calls.some((c) => c.url === '/api/profile' && c.method === 'PUT')).toBe(false)
  })
})

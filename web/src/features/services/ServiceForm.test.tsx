import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import { renderRoutes, stubFetch } from '@/test/render'
import AddServicePage from './AddServicePage'
import { serviceSchema } from './service-form'
import { ServiceDialog } from './ServiceDialog'

afterEach(() => vi.unstubAllGlobals())

const ana = { id: 'p1', name: 'Ana', specialization: 'Psicóloga', email: null, photoUrl: '', active: true, createdAt: '2026-01-01T00:00:00Z' }
const service = { id: 's1', name: 'Consulta', description: null, duration: 50, priceCents: 15000, bufferBefore: 0, bufferAfter: 0, active: true, online: false, onlineLink: '', professionalIds: ['p1'], deposit: { kind: 'none' as const, value: 0, holdMinutes: 30, keepOnLateCancel: true, keepOnNoShow: true }, createdAt: '2026-01-01T00:00:00Z' }

describe('serviceSchema', () => {
  const ok = { name: ' Consulta ', description: ' ', duration: '50', price: '1.234,5', bufferBefore: '', bufferAfter: '10', professionalIds: ['p1'], online: false, onlineLink: '',
    depositKind: 'none' as const, depositValue: '', depositHold: '30', depositKeepLate: true, depositKeepNoShow: true }
  const none = { kind: 'none', value: 0, holdMinutes: 30, keepOnLateCancel: true, keepOnNoShow: true }
  it('turns what was typed into the body the mutation sends', () => {
    expect(z.parse(serviceSchema, ok)).toEqual({ name: 'Consulta', description: '', duration: 50, priceCents: 123450, bufferBefore: 0, bufferAfter: 10, professionalIds: ['p1'], online: false, onlineLink: '', deposit: none })
  })
  it('sends a fixed deposit in centavos and a percentage as a whole number', () => {
    expect(z.parse(serviceSchema, { ...ok, depositKind: 'fixed', depositValue: '30,00', depositHold: '10' }).deposit).toEqual({ ...none, kind: 'fixed', value: 3000, holdMinutes: 10 })
    expect(z.parse(serviceSchema, { ...ok, depositKind: 'percent', depositValue: '20', depositKeepLate: false }).deposit).toEqual({ ...none, kind: 'percent', value: 20, keepOnLateCancel: false })
  })
  it.each([
    [{ name: '   ' }, 'name', 'Informe o nome do serviço.'],
    [{ duration: '0' }, 'duration', 'Informe a duração em minutos inteiros (mínimo 1).'],
    [{ duration: '1.5' }, 'duration', 'Informe a duração em minutos inteiros (mínimo 1).'],
    [{ price: 'abc' }, 'price', 'Informe o preço em reais, como 150,00.'],
    [{ price: '-1' }, 'price', 'Informe o preço em reais, como 150,00.'],
    [{ bufferAfter: '241' }, 'bufferAfter', 'Informe de 0 a 240 minutos.'],
    [{ bufferBefore: '-5' }, 'bufferBefore', 'Informe de 0 a 240 minutos.'],
    [{ depositKind: 'fixed', depositValue: '' }, 'depositValue', 'Informe o valor do sinal em reais, como 30,00.'],
    [{ depositKind: 'percent', depositValue: '12,5' }, 'depositValue', 'Informe a porcentagem do sinal, de 1 a 100.'],
    [{ online: true, onlineLink: 'http://meet.example.com/x' }, 'onlineLink', 'O link da videochamada deve começar com https:// (por exemplo, https://meet.google.com/abc-defg-hij).'],
  ])('%o is refused at %s', (change, field, message) => {
    const r = z.safeParse(serviceSchema, { ...ok, ...change })
    expect(r.success).toBe(false)
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[field, message]])
  })
})

describe('ServiceForm', () => {
  it('on /add-service waits for a valid form, shows why beside the field, and sends the schema’s body', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/professionals') return { status: 200, body: [ana] }
      if (c.url === '/api/services' && c.method === 'POST') return { status: 201, body: service }
      if (c.url === '/api/services') return { status: 200, body: [] }
      return undefined
    })
    const router = renderRoutes(
      [
        { path: '/add-service', Component: AddServicePage },
        { path: '/services', element: <p>serviços</p> },
      ],
      '/add-service',
    )
    const user = userEvent.setup()
    const submit = screen.getByRole('button', { name: 'Criar Serviço' })
    const duration = screen.getByLabelText('Duração (min) *')
    await user.clear(duration)
    await user.type(duration, '0')
    expect(await screen.findByText('Informe a duração em minutos inteiros (mínimo 1).')).toBeInTheDocument()
    expect(duration).toHaveAttribute('aria-invalid', 'true')
    expect(submit).toBeDisabled()
    await user.clear(duration)
    await user.type(duration, '50')
    await user.type(screen.getByLabelText('Nome do serviço *'), ' Consulta ')
    await user.clear(screen.getByLabelText('Preço (R$) *'))
    await user.type(screen.getByLabelText('Preço (R$) *'), '150,00')
    await user.click(await screen.findByRole('checkbox', { name: /Ana/ }))
    await waitFor(() => expect(submit).toBeEnabled())
    await user.click(submit)
    await waitFor(() => expect(router.state.location.pathname).toBe('/services'))
    const post = calls.find((c) => c.url === '/api/services' && c.method === 'POST')!
    expect(post.body).toEqual({ name: 'Consulta', description: '', duration: 50, priceCents: 15000, bufferBefore: 0, bufferAfter: 0, professionalIds: ['p1'], online: false, onlineLink: '',
      deposit: { kind: 'none', value: 0, holdMinutes: 30, keepOnLateCancel: true, keepOnNoShow: true } })
  })

  it('in the dialog keeps the server’s refusal beside the form and loses nothing typed', async () => {
    stubFetch((c) => {
      if (c.url === '/api/professionals') return { status: 200, body: [ana] }
      if (c.url === '/api/services/s1' && c.method === 'PUT') {
        return { status: 400, body: { error: { code: 'validation_failed', message: 'O nome do serviço deve ter no máximo 120 caracteres.' } } }
      }
      return undefined
    })
    renderRoutes([{ path: '/services', element: <ServiceDialog open onOpenChange={() => {}} service={service} /> }], '/services')
    const user = userEvent.setup()
    const name = screen.getByLabelText('Nome do serviço')
    expect(name).toHaveValue('Consulta')
    await user.type(name, ' longa')
    await user.click(screen.getByRole('button', { name: 'Atualizar Serviço' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('O nome do serviço deve ter no máximo 120 caracteres.')
    expect(name).toHaveValue('Consulta longa')
  })

  it('in the dialog says which fields are missing on submit', async () => {
    const calls = stubFetch((c) => (c.url === '/api/professionals' ? { status: 200, body: [] } : undefined))
    renderRoutes([{ path: '/services', element: <ServiceDialog open onOpenChange={() => {}} service={null} /> }], '/services')
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Criar Serviço' }))
    expect(await screen.findByText('Informe o nome do serviço.')).toBeInTheDocument()
    expect(await screen.findByText('Campos obrigatórios')).toBeInTheDocument()
    expect(calls.some((c) => c.url === '/api/services' && c.method === 'POST')).toBe(false)
  })
})

describe('an online service', () => {
  it('is marked online with its video-call link, which the form asks for only then', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/professionals') return { status: 200, body: [] }
      if (c.url === '/api/services' && c.method === 'POST') return { status: 201, body: { ...service, online: true } }
      if (c.url === '/api/services') return { status: 200, body: [] }
      return undefined
    })
    renderRoutes([{ path: '/add-service', Component: AddServicePage }, { path: '/services', element: <p>serviços</p> }], '/add-service')
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Nome do serviço *'), 'Sessão online')
    expect(screen.queryByLabelText('Link da videochamada (opcional)')).toBeNull()
    await user.click(screen.getByRole('checkbox', { name: 'Atendimento online (videochamada)' }))
    await user.type(screen.getByLabelText('Link da videochamada (opcional)'), 'https://meet.example.com/abc')
    await user.click(screen.getByRole('button', { name: 'Criar Serviço' }))
    const created = () => calls.find((c) => c.url === '/api/services' && c.method === 'POST')
    await waitFor(() => expect(created()).toBeDefined())
    expect(created()?.body).toMatchObject({ name: 'Sessão online', online: true, onlineLink: 'https://meet.example.com/abc' })
  })
})

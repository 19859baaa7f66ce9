import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { WhatsAppCard } from './WhatsAppCard'

afterEach(() => vi.unstubAllGlobals())

const none = { connected: false, wabaId: '', phoneNumberId: '', displayPhoneNumber: '', verifiedName: '', webhookUrl: '', verifyToken: '', templates: [], sentThisMonth: 0, connectedAt: null }
const operator = { available: true, enabled: false, ready: true, sentThisMonth: 84, allowance: 200 }

describe('WhatsAppCard: the Agendei number', () => {
  it('turns on with one labelled switch, says whose number sends and names the practice, and shows the month’s count', async () => {
    let current = { ...none, operator }
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: { name: 'Clínica Bem Viver' } }
      if (c.url === '/api/whatsapp' && c.method === 'GET') return { status: 200, body: current }
      if (c.url === '/api/whatsapp/operator' && c.method === 'PUT') {
        current = { ...current, operator: { ...operator, enabled: (c.body as { enabled: boolean }).enabled } }
        return { status: 200, body: current }
      }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    const toggle = await screen.findByRole('switch', { name: 'Enviar confirmações, lembretes e ofertas da lista de espera pelo WhatsApp do Agendei' })
    expect(toggle).not.toBeChecked()
    expect(screen.getByText('84 de 200 mensagens este mês')).toBeInTheDocument()
    expect(await screen.findByText(/As mensagens saem do número de WhatsApp do Agendei, não do seu/)).toHaveTextContent('“Mensagem de Clínica Bem Viver: olá, Ana!')
    // The manual connection of the owner's own number stays below.
    expect(screen.getByRole('form', { name: 'Conectar WhatsApp Business' })).toBeInTheDocument()

    const user = userEvent.setup()
    await user.click(toggle)
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ enabled: true }))
    await waitFor(() => expect(screen.getByRole('switch')).toBeChecked())
    await user.click(screen.getByRole('switch'))
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ enabled: false }))
  })

  it('says the month’s messages ran out', async () => {
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: { name: 'Clínica Bem Viver' } }
      if (c.url === '/api/whatsapp' && c.method === 'GET') return { status: 200, body: { ...none, operator: { ...operator, enabled: true, sentThisMonth: 200 } } }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    expect(await screen.findByText('200 de 200 mensagens este mês')).toBeInTheDocument()
    expect(screen.getByText(/O limite do mês acabou: até o dia 1º, lembretes e avisos vão por e-mail/)).toBeInTheDocument()
  })

  it('is not shown to an owner whose own number is connected, nor where the installation has no Agendei number', async () => {
    let body: object = { ...none, operator: { ...operator, available: false } }
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: { name: 'Clínica Bem Viver' } }
      if (c.url === '/api/whatsapp' && c.method === 'GET') return { status: 200, body }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    expect(await screen.findByRole('form', { name: 'Conectar WhatsApp Business' })).toBeInTheDocument()
    expect(screen.queryByRole('switch')).toBeNull()
    cleanup()
    body = {
      ...none,
      connected: true,
      wabaId: '1',
      phoneNumberId: '2',
      displayPhoneNumber: '+55 11 3333-4444',
      verifiedName: 'Clínica Bem Viver',
      webhookUrl: 'https://agendei.test/webhooks/whatsapp/k',
      verifyToken: 'v',
      connectedAt: '2026-11-20T12:00:00Z',
      operator,
    }
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    expect(await screen.findByText(/Conectado: Clínica Bem Viver/)).toBeInTheDocument()
    expect(screen.queryByRole('switch')).toBeNull()
  })
})

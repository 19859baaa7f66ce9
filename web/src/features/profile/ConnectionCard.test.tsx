import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { MercadoPagoCard } from './MercadoPagoCard'
import { WhatsAppCard } from './WhatsAppCard'

afterEach(() => vi.unstubAllGlobals())

const mp = {
  connected: true,
  userId: '123456789',
  nickname: 'CLINICA.SOL',
  webhookUrl: 'https://agendei.test/webhooks/mercadopago/k3y',
  connectedAt: '2026-11-20T12:00:00Z',
  lastNoticeAt: null,
  signatureRefusedAt: '2026-11-27T15:00:00Z',
}

describe('ConnectionCard', () => {
  it('replaces a connection keeping the secrets left blank, and disconnects after asking', async () => {
    let current: typeof mp | { connected: false } = mp
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/mercadopago' && c.method === 'GET') return { status: 200, body: current }
      if (c.url === '/api/mercadopago' && c.method === 'PUT') return { status: 200, body: { ...mp, signatureRefusedAt: null } }
      if (c.url === '/api/mercadopago' && c.method === 'DELETE') {
        current = { connected: false }
        return { status: 204 }
      }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: MercadoPagoCard }], '/profile')
    expect(await screen.findByText('Conectado: CLINICA.SOL')).toBeInTheDocument()
    expect(screen.getByText('Nenhum aviso de pagamento recebido ainda.')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('porque a assinatura não confere')
    expect(screen.getByRole('textbox', { name: 'URL de notificação (webhook)' })).toHaveValue(mp.webhookUrl)

    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Trocar dados de acesso' }))
    const form = screen.getByRole('form', { name: 'Conectar Mercado Pago' })
    expect(screen.getByLabelText('Access Token de produção')).toHaveAttribute('type', 'password')
    expect(form).toHaveTextContent('Deixe em branco para manter o atual.')
    await user.click(screen.getByRole('button', { name: 'Conectar Mercado Pago' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ accessToken: '', webhookSecret: '' }))
    expect(await screen.findByText('Conectado: CLINICA.SOL')).toBeInTheDocument()
    expect(screen.queryByRole('status')).toBeNull()

    await user.click(screen.getByRole('button', { name: 'Desconectar' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Desconectar o Mercado Pago?' })
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await user.click(within(dialog).getByRole('button', { name: 'Desconectar' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true))
    expect(await screen.findByRole('form', { name: 'Conectar Mercado Pago' })).toBeInTheDocument()
  })

  it('asks a first connection for every field, secrets included', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/whatsapp' && c.method === 'GET')
        return { status: 200, body: { connected: false, wabaId: '', phoneNumberId: '', displayPhoneNumber: '', verifiedName: '', webhookUrl: '', verifyToken: '', templates: [], sentThisMonth: 0, connectedAt: null, operator: { available: false, enabled: false, ready: false, sentThisMonth: 0, allowance: 0 }, signup: { available: false }, signedUp: false } }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    const form = await screen.findByRole('form', { name: 'Conectar WhatsApp Business' })
    expect(form).not.toHaveTextContent('Deixe em branco')
    expect(screen.queryByRole('button', { name: 'Cancelar' })).toBeNull()
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('ID da conta do WhatsApp Business'), '12a')
    await user.click(screen.getByRole('button', { name: 'Conectar WhatsApp' }))
    expect(await screen.findByText('Use só os dígitos, como o Meta mostra.')).toBeInTheDocument()
    expect(screen.getByText('Informe o token de acesso permanente.')).toBeInTheDocument()
    expect(screen.getByText('Informe a chave secreta do app.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
  })
})

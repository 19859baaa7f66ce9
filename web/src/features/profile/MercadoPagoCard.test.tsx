import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import type { MercadoPagoStatus } from './api/mercadopago'
import { MercadoPagoCard } from './MercadoPagoCard'
import MercadoPagoReturnPage from './MercadoPagoReturnPage'

afterEach(() => vi.unstubAllGlobals())

const none: MercadoPagoStatus = {
  connected: false,
  userId: '',
  nickname: '',
  webhookUrl: '',
  connectedAt: null,
  lastNoticeAt: null,
  signatureRefusedAt: null,
  auth: '',
  reconnect: false,
  oauthAvailable: true,
}
const byButton: MercadoPagoStatus = { ...none, connected: true, userId: '241983636', nickname: 'CLINICA.SOL', connectedAt: '2026-11-20T12:00:00Z', auth: 'oauth' }

function serve(status: MercadoPagoStatus) {
  return stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/mercadopago' && c.method === 'GET') return { status: 200, body: status }
    if (c.url === '/api/mercadopago/oauth/start') return { status: 200, body: { url: 'https://auth.mercadopago.test/authorization?state=s' } }
    return undefined
  })
}

describe('MercadoPagoCard', () => {
  it('offers “Conectar Mercado Pago” first, the manual form folded under “Configuração manual (avançado)”', async () => {
    const calls = serve(none)
    renderRoutes([{ path: '/profile', Component: MercadoPagoCard }], '/profile')
    const button = await screen.findByRole('button', { name: 'Conectar Mercado Pago' })
    const folded = screen.getByText('Configuração manual (avançado)').closest('details')
    expect(folded).not.toHaveAttribute('open')
    expect(folded).toContainElement(screen.getByLabelText('Access Token de produção'))
    expect(screen.getAllByRole('button', { name: 'Conectar Mercado Pago' })).toHaveLength(1)
    await userEvent.setup().click(button)
    await waitFor(() => expect(calls.some((c) => c.url === '/api/mercadopago/oauth/start' && c.method === 'POST')).toBe(true))
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
  })

  it('shows only the manual form when the operator has no Mercado Pago application', async () => {
    serve({ ...none, oauthAvailable: false })
    renderRoutes([{ path: '/profile', Component: MercadoPagoCard }], '/profile')
    expect(await screen.findByRole('form', { name: 'Conectar Mercado Pago' })).toBeInTheDocument()
    expect(screen.queryByText('Configuração manual (avançado)')).toBeNull()
    expect(screen.getByRole('button', { name: 'Conectar Mercado Pago' })).toHaveAttribute('type', 'submit')
  })

  it('shows a connection made by the button without a webhook to paste', async () => {
    serve(byButton)
    renderRoutes([{ path: '/profile', Component: MercadoPagoCard }], '/profile')
    expect(await screen.findByText('Conectado: CLINICA.SOL')).toBeInTheDocument()
    expect(screen.getByText(/Conectado pelo botão/)).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: 'URL de notificação (webhook)' })).toBeNull()
  })

  it('asks a connection made by the button for both secrets when replaced by hand: none of the owner’s is stored to keep', async () => {
    const calls = serve(byButton)
    renderRoutes([{ path: '/profile', Component: MercadoPagoCard }], '/profile')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Trocar dados de acesso' }))
    expect(screen.queryByText(/Deixe em branco para manter/)).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Conectar com o Access Token' }))
    expect(await screen.findByText('Informe o Access Token de produção.')).toBeInTheDocument()
    expect(screen.getByText('Informe a assinatura secreta do webhook.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
  })

  it('says “Reconecte o Mercado Pago” with the button when a renewal was refused', async () => {
    serve({ ...byButton, reconnect: true })
    renderRoutes([{ path: '/profile', Component: MercadoPagoCard }], '/profile')
    expect(await screen.findByText('Reconecte o Mercado Pago')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('os sinais usam a sua chave Pix')
    expect(screen.getByRole('button', { name: 'Conectar Mercado Pago' })).toBeInTheDocument()
  })
})

describe('MercadoPagoReturnPage', () => {
  it('hands the code and state back to the server once, then goes to the profile', async () => {
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/mercadopago/oauth/finish') return { status: 200, body: byButton }
      return undefined
    })
    renderRoutes(
      [
        { path: '/profile/mercadopago', Component: MercadoPagoReturnPage },
        { path: '/profile', Component: () => <p>Perfil</p> },
      ],
      '/profile/mercadopago?code=TG-abc-241983636&state=st4te',
    )
    expect(await screen.findByText('Perfil')).toBeInTheDocument()
    const finish = calls.filter((c) => c.url === '/api/mercadopago/oauth/finish')
    expect(finish).toHaveLength(1)
    expect(finish[0].method).toBe('POST')
    expect(finish[0].body).toEqual({ code: 'TG-abc-241983636', state: 'st4te', error: '' })
  })

  it('shows the server’s pt-BR refusal with the way back', async () => {
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/mercadopago/oauth/finish')
        return { status: 400, body: { error: { code: 'mercadopago_oauth_state', message: 'Este retorno do Mercado Pago não vale mais. Clique em “Conectar Mercado Pago” de novo.' } } }
      return undefined
    })
    renderRoutes([{ path: '/profile/mercadopago', Component: MercadoPagoReturnPage }], '/profile/mercadopago?code=x&state=old')
    expect(await screen.findByRole('alert')).toHaveTextContent('Este retorno do Mercado Pago não vale mais')
    expect(screen.getByRole('link', { name: 'Voltar ao perfil' })).toHaveAttribute('href', '/profile')
  })
})

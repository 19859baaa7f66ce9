import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { WhatsAppCard } from './WhatsAppCard'

afterEach(() => vi.unstubAllGlobals())

const none = { connected: false, wabaId: '', phoneNumberId: '', displayPhoneNumber: '', verifiedName: '', webhookUrl: '', verifyToken: '', templates: [], sentThisMonth: 0, connectedAt: null, signup: { available: false }, signedUp: false }
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
        return { status: 200, body: current, delayMs: 300 }
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

    // The tap moves the switch at once, within the same event: it never snaps back for a tick while the save starts
    // (a browser journey's check() saw it unchanged right after its click).
    fireEvent.click(toggle)
    expect(toggle).toBeChecked()
    // While it saves, the switch stays where the owner put it.
    await waitFor(() => expect(screen.getByRole('switch')).toBeDisabled())
    expect(screen.getByRole('switch')).toBeChecked()
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ enabled: true }))
    await waitFor(() => expect(screen.getByRole('switch')).toBeEnabled())
    expect(screen.getByRole('switch')).toBeChecked()
    await userEvent.setup().click(screen.getByRole('switch'))
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

/**
 * A stand-in of Meta's JS SDK on window.FB (the tests reach no outside
 * site): FB.login posts the sign-up's session logging message as Meta's
 * window does (from https://www.facebook.com) and answers with a code.
 */
function fakeSDK(opts: { origin?: string; cancel?: boolean; message?: object } = {}) {
  const logins: Record<string, unknown>[] = []
  let n = 0
  const FB = {
    init: vi.fn(),
    login: (cb: (r: { authResponse: { code: string } | null }) => void, o: Record<string, unknown>) => {
      logins.push(o)
      n++
      // The three shapes Meta's documentation gives (session logging, v3 format).
      const data =
        opts.message ??
        (opts.cancel
          ? { type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { current_step: 'PHONE_NUMBER_SETUP' } }
          : { type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { phone_number_id: '5550001', waba_id: '7770001', business_id: '8880001' } })
      window.dispatchEvent(new MessageEvent('message', { origin: opts.origin ?? 'https://www.facebook.com', data: JSON.stringify(data) }))
      cb({ authResponse: opts.cancel ? null : { code: `AQcodigo${n}` } })
    },
  }
  vi.stubGlobal('FB', FB)
  return { FB, logins }
}

const connected = {
  ...none,
  connected: true,
  signedUp: true,
  wabaId: '7770001',
  phoneNumberId: '5550001',
  displayPhoneNumber: '+55 11 3222-1000',
  verifiedName: 'Clínica Sorriso',
  templates: [{ kind: 'reminder', name: 'agendei_lembrete_v1', status: 'PENDING' }],
  connectedAt: '2026-11-28T06:00:00Z',
  operator: { ...operator, available: false },
}
const offered = { ...none, operator: { ...operator, available: false }, signup: { available: true, appId: '4455667788', configId: '9988776655', graphVersion: 'v21.0' } }

describe('WhatsAppCard: Conectar meu WhatsApp (Embedded Signup)', () => {
  it('opens Meta’s window with the configuration, posts the code and ids, and shows the number; the manual form folds under avançado', async () => {
    const { FB, logins } = fakeSDK()
    let current: object = offered
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: { name: 'Clínica Sorriso' } }
      if (c.url === '/api/whatsapp' && c.method === 'GET') return { status: 200, body: current }
      if (c.url === '/api/whatsapp/signup' && c.method === 'POST') {
        current = connected
        return { status: 200, body: connected }
      }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    const button = await screen.findByRole('button', { name: 'Conectar meu WhatsApp' })
    expect(screen.getByText('Configuração manual (avançado)')).toBeInTheDocument()
    expect(FB.init).not.toHaveBeenCalled() // nothing of Meta's before the click
    await userEvent.setup().click(button)
    await waitFor(() => expect(calls.find((c) => c.url === '/api/whatsapp/signup')?.body).toEqual({ code: 'AQcodigo1', wabaId: '7770001', phoneNumberId: '5550001' }))
    expect(FB.init).toHaveBeenCalledWith(expect.objectContaining({ appId: '4455667788', version: 'v21.0' }))
    expect(logins[0]).toEqual({ config_id: '9988776655', response_type: 'code', override_default_response_type: true, extras: { setup: {}, sessionInfoVersion: '3', version: 'v4' } })
    expect(await screen.findByText(/Conectado: Clínica Sorriso/)).toBeInTheDocument()
    expect(screen.queryByText('URL de retorno (webhook)')).not.toBeInTheDocument()
  })

  it('ignores the sign-up message from another origin', async () => {
    fakeSDK({ origin: 'https://evil.example' })
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: { name: 'Clínica Sorriso' } }
      if (c.url === '/api/whatsapp' && c.method === 'GET') return { status: 200, body: offered }
      return undefined
    })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
      await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(await screen.findByRole('button', { name: 'Conectar meu WhatsApp' }))
      await vi.advanceTimersByTimeAsync(16_000)
      expect(await screen.findByText(/O Meta não informou a conta e o número escolhidos/)).toBeInTheDocument()
      expect(calls.some((c) => c.url === '/api/whatsapp/signup')).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })

  it('asks for the number’s PIN when Meta does, and goes through Meta’s window again with it', async () => {
    fakeSDK()
    const calls = stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: { name: 'Clínica Sorriso' } }
      if (c.url === '/api/whatsapp' && c.method === 'GET') return { status: 200, body: offered }
      if (c.url === '/api/whatsapp/signup' && c.method === 'POST') {
        if (!(c.body as { pin?: string }).pin)
          return { status: 409, body: { error: { code: 'whatsapp_pin_required', message: 'Este número já tem verificação em duas etapas: digite o PIN de 6 dígitos dele para concluir.' } } }
        return { status: 200, body: connected }
      }
      return undefined
    })
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Conectar meu WhatsApp' }))
    const pin = await screen.findByLabelText('PIN da verificação em duas etapas')
    await user.click(screen.getByRole('button', { name: 'Conectar meu WhatsApp' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('O PIN tem 6 dígitos.')
    await user.type(pin, '246810')
    await user.click(screen.getByRole('button', { name: 'Conectar meu WhatsApp' }))
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/whatsapp/signup').at(-1)?.body).toEqual({ code: 'AQcodigo2', wabaId: '7770001', phoneNumberId: '5550001', pin: '246810' }))
  })

  const offer = () =>
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/profile' && c.method === 'GET') return { status: 200, body: { name: 'Clínica Sorriso' } }
      if (c.url === '/api/whatsapp' && c.method === 'GET') return { status: 200, body: offered }
      return undefined
    })

  it('says calmly that nothing was connected when the owner leaves Meta’s window at a step (CANCEL with current_step)', async () => {
    fakeSDK({ cancel: true })
    const calls = offer()
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Conectar meu WhatsApp' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Conexão não concluída: a janela do Meta foi fechada antes do fim.')
    // Said once, beside the button: not an error toast.
    expect(screen.getAllByText(/Conexão não concluída/)).toHaveLength(1)
    expect(calls.some((c) => c.url === '/api/whatsapp/signup')).toBe(false)
  })

  it('tells the owner to add a number when the sign-up ends with an account and no number (FINISH_ONLY_WABA), and posts nothing', async () => {
    fakeSDK({ message: { type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH_ONLY_WABA', data: { waba_id: '7770001', business_id: '8880001' } } })
    const calls = offer()
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Conectar meu WhatsApp' }))
    expect(await screen.findByRole('status')).toHaveTextContent('foi criada no Meta, mas ainda sem um número de telefone')
    expect(screen.getByRole('button', { name: 'Conectar meu WhatsApp' })).toBeEnabled()
    expect(calls.some((c) => c.url === '/api/whatsapp/signup')).toBe(false)
  })

  it('says Meta showed an error when the window reports one (CANCEL with error_message)', async () => {
    fakeSDK({
      message: { type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { error_message: 'Your verified name violates WhatsApp guidelines.', error_id: '524126', session_id: 'f34b51dab5e0498', timestamp: '1689037124' } },
    })
    const calls = offer()
    renderRoutes([{ path: '/profile', Component: WhatsAppCard }], '/profile')
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Conectar meu WhatsApp' }))
    expect(await screen.findByText(/O Meta mostrou um erro na janela de conexão \(código 524126\)/)).toBeInTheDocument()
    expect(calls.some((c) => c.url === '/api/whatsapp/signup')).toBe(false)
  })
})

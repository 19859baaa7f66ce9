import { fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderRoutes, stubFetch } from '@/test/render'
import { PushButton } from './PushButton'

// Issue 41 §4: the button's states, on a browser whose Push API and service
// worker are stand-ins (jsdom has neither; headless Chromium has no push service).

const key = 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'
const endpoint = 'https://fcm.googleapis.com/fcm/send/abc'

function browser(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const subscription = {
    endpoint,
    options: { applicationServerKey: null },
    toJSON: () => ({ endpoint, keys: { p256dh: 'BPk', auth: 'au' } }),
    unsubscribe: vi.fn(async () => true),
  }
  const pushManager = { getSubscription: vi.fn(async () => null), subscribe: vi.fn(async () => subscription) }
  const registration = { pushManager }
  vi.stubGlobal('Notification', Object.assign(function Notification() {}, { permission, requestPermission: vi.fn(async () => answer) }))
  vi.stubGlobal('PushManager', function PushManager() {})
  vi.stubGlobal('navigator', {
    ...navigator,
    serviceWorker: { register: vi.fn(async () => registration), ready: Promise.resolve(registration), getRegistration: vi.fn(async () => registration) },
  })
  return { pushManager, subscription }
}

const show = () => renderRoutes([{ path: '/', Component: () => <PushButton token="tok-1" /> }], '/')

beforeEach(() => localStorage.clear())
afterEach(() => vi.unstubAllGlobals())

describe('"Receber lembretes neste celular"', () => {
  it('subscribes this browser with the server key and gives the subscription to the booking', async () => {
    const { pushManager } = browser('default', 'granted')
    const calls = stubFetch((c) =>
      c.url === '/api/public/push/key' ? { status: 200, body: { publicKey: key } } : c.url === '/api/public/bookings/tok-1/push' ? { status: 200, body: { subscribed: true } } : undefined,
    )
    show()
    fireEvent.click(screen.getByRole('button', { name: 'Receber lembretes neste celular' }))
    expect(await screen.findByText(/Ativados: você recebe o lembrete aqui/)).toBeInTheDocument()
    expect(pushManager.subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }))
    const sent = calls.find((c) => c.url === '/api/public/bookings/tok-1/push')
    expect(sent?.method).toBe('POST')
    expect(sent?.body).toEqual({ endpoint, keys: { p256dh: 'BPk', auth: 'au' } })
    expect(screen.getByRole('button', { name: 'Parar os lembretes neste celular' })).toBeInTheDocument()
  })

  it('says how to allow notifications when the browser blocks them, and sends nothing', async () => {
    browser('default', 'denied')
    const calls = stubFetch(() => undefined)
    show()
    fireEvent.click(screen.getByRole('button', { name: 'Receber lembretes neste celular' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('As notificações estão bloqueadas neste navegador. Libere-as nas configurações do site')
    expect(calls.filter((c) => c.url.includes('/push'))).toHaveLength(0)
  })

  it("shows the server's refusal in its words", async () => {
    browser('granted')
    stubFetch((c) =>
      c.url === '/api/public/push/key'
        ? { status: 200, body: { publicKey: key } }
        : c.url === '/api/public/bookings/tok-1/push'
          ? { status: 429, body: { error: { code: 'rate_limited', message: 'Muitas tentativas. Aguarde 1 hora e tente novamente.' } } }
          : undefined,
    )
    show()
    fireEvent.click(screen.getByRole('button', { name: 'Receber lembretes neste celular' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Muitas tentativas. Aguarde 1 hora')
  })

  it('stops: the booking forgets this browser', async () => {
    localStorage.setItem('agendei:push:tok-1', '1')
    const calls = stubFetch((c) => (c.url === '/api/public/bookings/tok-1/push/remove' ? { status: 200, body: { removed: true } } : undefined))
    const { pushManager } = browser('granted')
    pushManager.getSubscription.mockResolvedValue({ endpoint } as never)
    show()
    fireEvent.click(screen.getByRole('button', { name: 'Parar os lembretes neste celular' }))
    expect(await screen.findByRole('button', { name: 'Receber lembretes neste celular' })).toBeInTheDocument()
    expect(calls.find((c) => c.url === '/api/public/bookings/tok-1/push/remove')?.body).toEqual({ endpoint })
  })

  it('on an iPhone outside an installed app, says how to add it to the home screen', () => {
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', platform: 'iPhone', maxTouchPoints: 5 })
    show()
    expect(screen.getByText(/Adicionar à Tela de Início/)).toBeInTheDocument()
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })

  it('shows nothing where the browser has no Push API', () => {
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', platform: 'Linux', maxTouchPoints: 0 })
    show()
    expect(screen.queryByText(/Lembretes neste celular/)).not.toBeInTheDocument()
  })
})

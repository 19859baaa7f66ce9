import { screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import Confirmation from './Confirmation'

afterEach(() => vi.unstubAllGlobals())

const profile: Schemas['PublicProfile'] = {
  username: 'ana', name: 'Ana Souza', area: 'Psicologia', description: '', photoUrl: '', contactEmail: '', phone: '', website: '',
  instagram: '', linkedin: '', whatsapp: '', address: '', mapsUrl: '', bookingOpen: true, hidePrices: false, firstBookableDate: '2026-11-23', lastBookableDate: '2027-02-21',
  services: [], professionals: [],
}
const deposit = { amountCents: 3000, state: 'pending' as const, expiresAt: new Date(Date.now() + 1800e3).toISOString(), copyPaste: '', receiver: 'ANA', policy: '' }
const booking: Schemas['Booking'] = {
  id: 'a1', date: '2099-11-30', time: '10:00', professionalName: 'Ana', serviceName: 'Sessão', duration: 45, priceCents: 15000,
  startsAt: '2099-11-30T13:00:00Z', googleCalendarUrl: 'https://calendar.google.com/calendar/render?action=TEMPLATE', token: 'tok',
  place: { online: false, link: '', address: '', mapsUrl: '' }, deposit,
}
const page = (status: 'awaiting_deposit' | 'confirmed', state: 'pending' | 'paid') => ({
  ownerName: 'Ana Souza', professionalName: 'Ana', serviceName: 'Sessão', date: '2099-11-30', time: '10:00', duration: 45, priceCents: 15000,
  status, cancellable: true, cancelUntil: '2099-11-29T13:00:00Z', username: 'ana', professionalId: 'p1', serviceId: 's1', ownerWhatsapp: '', ownerContactEmail: '',
  deposit: { ...deposit, state },
})

// Issue 39 §5: the card the client keeps open to pay turns by itself once the deposit is received.
it('turns from "Aguardando sinal" to "Sinal recebido — agendamento confirmado" without a reload', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  try {
    let paid = false
    stubFetch((c) => (c.url === '/api/public/bookings/tok' ? { status: 200, body: paid ? page('confirmed', 'paid') : page('awaiting_deposit', 'pending') } : undefined))
    renderRoutes([{ path: '/', Component: () => <Confirmation profile={profile} done={{ booking, email: 'maria@example.com' }} onAgain={() => {}} /> }], '/')
    expect(await screen.findByRole('heading', { name: 'Aguardando sinal' })).toBeInTheDocument()
    paid = true
    await vi.advanceTimersByTimeAsync(3_500)
    expect(await screen.findByRole('heading', { name: 'Sinal recebido — agendamento confirmado' })).toBeInTheDocument()
    expect(screen.queryByText(/Pague o sinal/)).not.toBeInTheDocument()
    expect(screen.getByText(/Você receberá uma confirmação por e-mail em maria@example.com/)).toBeInTheDocument()
  } finally {
    vi.useRealTimers()
  }
})

// Issue 41 §5: a client who booked with a phone only gets no e-mail, so the card is all they take away: it offers the reminders on
// this phone by push, and the private link sent to their own WhatsApp.
it('offers a phone-only client push reminders and the private link by WhatsApp', async () => {
  const registration = { pushManager: { getSubscription: vi.fn(async () => null), subscribe: vi.fn() } }
  vi.stubGlobal('Notification', Object.assign(function Notification() {}, { permission: 'default', requestPermission: vi.fn() }))
  vi.stubGlobal('PushManager', function PushManager() {})
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: { register: vi.fn(async () => registration), ready: Promise.resolve(registration) } })
  stubFetch(() => undefined)
  renderRoutes([{ path: '/', Component: () => <Confirmation profile={profile} done={{ booking: { ...booking, deposit: undefined }, email: '' }} onAgain={() => {}} /> }], '/')
  expect(await screen.findByRole('heading', { name: 'Agendamento confirmado!' })).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Receber lembretes neste celular' })).toBeInTheDocument()
  const whatsapp = screen.getByRole('link', { name: 'Enviar para meu WhatsApp' })
  const text = new URL(whatsapp.getAttribute('href') ?? '').searchParams.get('text') ?? ''
  expect(text).toContain(`${window.location.origin}/cancel/tok`)
  expect(screen.queryByText(/confirmação por e-mail/)).not.toBeInTheDocument()
})

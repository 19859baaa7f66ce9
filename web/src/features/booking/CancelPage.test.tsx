import { screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import CancelPage from './CancelPage'

afterEach(() => vi.unstubAllGlobals())

// Tomorrow, past the practice's 48-hour cutoff.
const tomorrow = new Date(Date.now() + 864e5).toISOString().slice(0, 10)
const booking: Schemas['Cancellation'] = {
  ownerName: 'Clínica Rita', professionalName: 'Rita', serviceName: 'Sessão', date: tomorrow, time: '23:00', duration: 60, priceCents: 12000,
  status: 'confirmed', cancellable: false, cancelUntil: new Date(Date.now() - 3600e3).toISOString(), username: 'rita', professionalId: 'p1', serviceId: 's1',
  ownerWhatsapp: '+5511977771234', ownerContactEmail: 'contato@clinicarita.com.br', deposit: null,
}

const open = (reply: { status: number; body?: unknown }) => {
  stubFetch((c) => (c.url === '/api/public/bookings/tok' ? reply : undefined))
  renderRoutes([{ path: '/cancel/:token', Component: CancelPage }], '/cancel/tok')
}

it("past the cutoff, sends the client to the practice's WhatsApp, and the footer reaches the practice", async () => {
  open({ status: 200, body: booking })
  const wa = await screen.findByRole('link', { name: 'pelo WhatsApp' })
  expect(wa.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/5511977771234\?text=Ol%C3%A1!%20Preciso%20cancelar%20ou%20remarcar/)
  expect(screen.getByText(/O prazo para cancelar por aqui terminou/)).toHaveTextContent(/entre em contato com Clínica Rita pelo WhatsApp\.$/)
  expect(screen.getByRole('link', { name: 'E-mail' })).toHaveAttribute('href', 'mailto:contato@clinicarita.com.br')
})

it('says so when the practice shows no WhatsApp', async () => {
  open({ status: 200, body: { ...booking, ownerWhatsapp: '', ownerContactEmail: '' } })
  expect(await screen.findByText(/O prazo para cancelar por aqui terminou/)).toHaveTextContent(/entre em contato com Clínica Rita\.$/)
  expect(screen.queryByRole('link', { name: /WhatsApp/ })).not.toBeInTheDocument()
})

it('tells an expired link from an unknown one', async () => {
  open({ status: 404, body: { error: { code: 'link_expired', message: 'Este link expirou: o agendamento já terminou.' } } })
  expect(await screen.findByRole('heading', { name: 'Link expirado' })).toBeInTheDocument()
  expect(screen.getByText('Este link expirou: o agendamento já terminou.')).toBeInTheDocument()
})

// Issue 39 §5: a booking whose Pix is unpaid is "Aguardando sinal", and the open page turns to
// "Sinal recebido — agendamento confirmado" once the owner (or the provider) confirms it — no reload.
it('follows a deposit from "Aguardando sinal" to "Sinal recebido — agendamento confirmado" without a reload', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  try {
    const later = new Date(Date.now() + 7 * 864e5).toISOString().slice(0, 10)
    const deposit = { amountCents: 3000, state: 'pending' as const, expiresAt: new Date(Date.now() + 1800e3).toISOString(), copyPaste: '', receiver: 'RITA', policy: '' }
    const held: Schemas['Cancellation'] = {
      ...booking, date: later, status: 'awaiting_deposit', cancellable: true, cancelUntil: new Date(Date.now() + 3 * 864e5).toISOString(), deposit,
    }
    let paid = false
    stubFetch((c) =>
      c.url === '/api/public/bookings/tok'
        ? { status: 200, body: paid ? { ...held, status: 'confirmed', deposit: { ...deposit, state: 'paid' as const } } : held }
        : undefined,
    )
    renderRoutes([{ path: '/cancel/:token', Component: CancelPage }], '/cancel/tok')
    expect(await screen.findByText('Aguardando sinal')).toBeInTheDocument()
    expect(screen.queryByText(/Sinal recebido/)).not.toBeInTheDocument()
    paid = true
    await vi.advanceTimersByTimeAsync(3_500)
    expect(await screen.findByText('Sinal recebido — agendamento confirmado')).toBeInTheDocument()
    expect(screen.queryByText('Aguardando sinal')).not.toBeInTheDocument()
    expect(screen.queryByText(/Pague o sinal/)).not.toBeInTheDocument()
  } finally {
    vi.useRealTimers()
  }
})

import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { AppointmentDetails } from './AppointmentDetails'

afterEach(() => vi.unstubAllGlobals())

const session8 = {
  id: 'a1', professionalId: 'p1', professionalName: 'Ana', serviceId: 's1', serviceName: 'Sessão', duration: 50, priceCents: 15000,
  clientName: 'Paula Souza', clientEmail: 'paula@example.com', clientPhone: '11977771234', notes: '',
  date: '2099-03-02', time: '10:00', status: 'confirmed' as const, createdAt: '2099-01-01T12:00:00Z', seriesId: 'series1', answer: '' as const,
}

it('cancelling asks once, with the rest of the series and the e-mail to the client as choices of that one question', async () => {
  const calls: FetchCall[] = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/appointments/a1' && c.method === 'PATCH') return { status: 200, body: { ...session8, status: 'cancelled' } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={session8} /> }], '/')

  fireEvent.click(await screen.findByRole('button', { name: 'Cancelar agendamento' }))
  const question = screen.getByRole('alertdialog', { name: 'Cancelar este agendamento?' })
  expect(screen.getAllByRole('alertdialog')).toHaveLength(1)
  const series = within(question).getByRole('checkbox', { name: 'Cancelar também as próximas sessões desta série' })
  const notify = within(question).getByRole('checkbox', { name: 'Avisar Paula Souza do cancelamento' })
  expect(series).not.toBeChecked()
  expect(notify).toBeChecked()
  fireEvent.click(series)
  fireEvent.click(within(question).getByRole('button', { name: 'Cancelar agendamento' }))

  await waitFor(() => expect(calls.some((c) => c.url === '/api/appointments/a1' && c.method === 'PATCH')).toBe(true))
  expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ status: 'cancelled', notifyClient: true, following: true })
  expect(screen.queryByRole('alertdialog')).toBeNull()
})

it('keeping the appointment sends nothing', async () => {
  const calls: FetchCall[] = stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={{ ...session8, seriesId: null, clientEmail: '', clientPhone: '' }} /> }], '/')

  fireEvent.click(await screen.findByRole('button', { name: 'Cancelar agendamento' }))
  expect(screen.queryByRole('checkbox')).toBeNull()
  fireEvent.click(screen.getByRole('button', { name: 'Manter agendamento' }))
  expect(screen.queryByRole('alertdialog')).toBeNull()
  expect(calls.some((c) => c.method === 'PATCH')).toBe(false)
})

it('shows each automatic WhatsApp message and says when one was not delivered', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/appointments/a1/whatsapp')
      return {
        status: 200,
        body: [
          { kind: 'confirmation', state: 'read', error: '', emailed: false, sentAt: '2099-01-01T12:00:00Z', updatedAt: '2099-01-01T12:05:00Z' },
          { kind: 'reminder', state: 'failed', error: '131026 Message undeliverable', emailed: true, sentAt: '2099-03-01T10:00:00Z', updatedAt: '2099-03-01T10:01:00Z' },
        ],
      }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={session8} /> }], '/')
  const list = await screen.findByRole('list', { name: 'Mensagens automáticas de WhatsApp' })
  expect(within(list).getByText('WhatsApp lido')).toBeInTheDocument()
  expect(within(list).getByText('WhatsApp não entregue — enviado por e-mail')).toBeInTheDocument()
})

it('offers completed and no-show only from the start on, and the WhatsApp reminder only before it (issue 39)', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date(2026, 10, 27, 9, 59)) // local 27/11/2026 09:59
  try {
    stubFetch((c) => {
      if (c.url === '/api/auth/refresh') return { status: 200, body: session }
      if (c.url === '/api/message-templates') return { status: 200, body: { confirmation: 'Oi {nome}', reminder: 'Lembrete {nome}', reschedule: 'Remarcado {nome}' } }
      return undefined
    })
    const at = (time: string) => ({ ...session8, date: '2026-11-27', time })
    renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={at('10:00')} /> }], '/')
    expect(await screen.findByRole('button', { name: 'Cancelar agendamento' })).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: 'Enviar lembrete pelo WhatsApp' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Marcar como concluído' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Não compareceu' })).toBeNull()
    cleanup()

    renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={at('09:59')} /> }], '/')
    expect(await screen.findByRole('button', { name: 'Marcar como concluído' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Não compareceu' })).toBeInTheDocument()
    expect(screen.queryByRole('group', { name: 'Mensagens por WhatsApp' })).toBeNull()
  } finally {
    vi.useRealTimers()
  }
})

// Never "avisado" when nobody was told (issue 39 §2): the server answers the
// channel; a client without e-mail gets the cancellation ready on WhatsApp.
it('says which channel told the client of a cancellation, and offers the WhatsApp cancellation when none could', async () => {
  const phoneOnly = { ...session8, seriesId: null, clientEmail: '' }
  const calls: FetchCall[] = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/appointments/a1' && c.method === 'PATCH') return { status: 200, body: { ...phoneOnly, status: 'cancelled', notice: 'none' } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={phoneOnly} /> }], '/')
  fireEvent.click(await screen.findByRole('button', { name: 'Cancelar agendamento' }))
  const question = screen.getByRole('alertdialog', { name: 'Cancelar este agendamento?' })
  expect(within(question).getByRole('checkbox', { name: 'Avisar Paula Souza do cancelamento' })).toBeChecked()
  fireEvent.click(within(question).getByRole('button', { name: 'Cancelar agendamento' }))
  const link = await screen.findByRole('link', { name: /Enviar o cancelamento pelo WhatsApp/ })
  expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ status: 'cancelled', notifyClient: true })
  expect(screen.getByText('Não conseguimos avisar automaticamente.')).toBeInTheDocument()
  const text = new URL(link.getAttribute('href')!).searchParams.get('text')!
  expect(text).toContain('Precisamos cancelar o seu horário de Sessão com Ana')
  expect(document.body.textContent).not.toMatch(/avisado/i)
  cleanup()

  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/appointments/a1' && c.method === 'PATCH') return { status: 200, body: { ...session8, status: 'cancelled', notice: 'email' } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={{ ...session8, seriesId: null }} /> }], '/')
  fireEvent.click(await screen.findByRole('button', { name: 'Cancelar agendamento' }))
  fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancelar agendamento' }))
  expect(await screen.findByText('Avisamos por e-mail.')).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: /Enviar o cancelamento/ })).toBeNull()
})

// On a phone the details are a sheet whose action bar sits beside the form:
// while moving, "Cancelar agendamento" is not offered next to "Confirmar
// remarcação" (issue 39 §4); the move then says how the client was told.
it('offers only the move\'s own actions while moving, then says how the client was told', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/appointments/a1/reschedule') return { status: 200, body: { ...session8, time: '11:00', notice: 'whatsapp' } }
    if (c.url.startsWith('/api/agenda/free-times')) return { status: 200, body: { times: ['11:00'] } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={session8} /> }], '/')
  fireEvent.click(await screen.findByRole('button', { name: 'Remarcar' }))
  expect(screen.getByRole('button', { name: 'Confirmar remarcação' })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Cancelar agendamento' })).toBeNull()
  fireEvent.click(await screen.findByRole('button', { name: '11:00' }))
  fireEvent.click(screen.getByRole('button', { name: 'Confirmar remarcação' }))
  expect(await screen.findByText('Avisamos por WhatsApp.')).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Cancelar agendamento' })).toBeInTheDocument()
})

it('a hold awaiting its deposit reads "Aguardando sinal", is confirmed by "Sinal recebido", not a bare "Confirmar"; a return is an action (issue 39 §5)', async () => {
  const deposit = (state: string) => ({
    appointmentId: 'a1', amountCents: 3000, state, provider: 'pix', reference: 'R1', copyPaste: '000201', receiver: 'ANA', expiresAt: '2099-03-01T12:00:00Z',
    paidAt: null, returnedAt: null, latePayment: false, createdAt: '2099-03-01T11:30:00Z', history: [{ state, source: 'client', at: '2099-03-01T11:30:00Z' }],
  })
  let state = 'pending'
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/appointments/a1/deposit') return { status: 200, body: deposit(state) }
    return undefined
  })
  const held = { ...session8, seriesId: null, status: 'awaiting_deposit' as const }
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={held} /> }], '/')
  expect(await screen.findByRole('button', { name: 'Sinal recebido' })).toBeInTheDocument()
  expect(screen.getByText('Aguardando sinal')).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Confirmar' })).toBeNull()
  expect(screen.getByRole('button', { name: 'Remarcar' })).toBeInTheDocument()
  cleanup()

  state = 'to_return'
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={{ ...held, status: 'cancelled' }} /> }], '/')
  expect(await screen.findByRole('button', { name: 'Registrar devolução do sinal' })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Sinal devolvido' })).toBeNull()
})

it('opens the health record from an appointment once it has begun, for a client with a page (issue 43)', async () => {
  stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
  const past = { ...session8, id: 'a7', date: '2020-03-02', status: 'completed' as const }
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={past} /> }], '/')
  expect(await screen.findByRole('link', { name: 'Abrir prontuário' })).toHaveAttribute('href', '/clients/a7/prontuario?appointment=a7')
  cleanup()
  // Not begun yet: no record to open.
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={session8} /> }], '/')
  expect(await screen.findByText('Paula Souza')).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Abrir prontuário' })).toBeNull()
  cleanup()
  // A client whose contacts were erased has no page, and no record to open from here.
  renderRoutes([{ path: '/', Component: () => <AppointmentDetails appointment={{ ...past, clientEmail: '', clientPhone: '' }} /> }], '/')
  expect(await screen.findByText('Paula Souza')).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Abrir prontuário' })).toBeNull()
})

import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { NewAppointmentForm } from './NewAppointmentForm'
import { RescheduleForm } from './RescheduleForm'

afterEach(() => vi.unstubAllGlobals())

const whatsApp = (connected: boolean, confirmation: string) => ({
  connected, wabaId: '1', phoneNumberId: '2', displayPhoneNumber: '+55 11 3333-4444', verifiedName: 'Clínica', webhookUrl: 'https://x/api/whatsapp/webhook',
  verifyToken: 't', sentThisMonth: 0, connectedAt: connected ? '2099-01-01T12:00:00Z' : null,
  templates: [{ kind: 'confirmation', name: 'agendei_confirmacao_v1', status: confirmation }, { kind: 'reminder', name: 'agendei_lembrete_v1', status: 'APPROVED' }],
})

function stub(wa: ReturnType<typeof whatsApp>): FetchCall[] {
  return stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/whatsapp') return { status: 200, body: wa }
    if (c.url === '/api/professionals' || c.url === '/api/services') return { status: 200, body: [] }
    return undefined
  })
}

const phoneOnly = {
  id: 'a1', professionalId: 'p1', professionalName: 'Ana', serviceId: 's1', serviceName: 'Sessão', duration: 50, priceCents: 15000,
  clientName: 'Paula Souza', clientEmail: '', clientPhone: '11977771234', notes: '',
  date: '2099-03-02', time: '10:00', status: 'confirmed' as const, createdAt: '2099-01-01T12:00:00Z', seriesId: null, answer: '' as const,
}

it('new appointment: a phone-only client can be notified when the WhatsApp confirmation template is approved', async () => {
  const calls = stub(whatsApp(true, 'APPROVED'))
  renderRoutes([{ path: '/', Component: () => <NewAppointmentForm at={{ date: '2099-03-02' }} onDone={() => {}} onCancel={() => {}} /> }], '/')

  fireEvent.change(await screen.findByLabelText('Telefone'), { target: { value: '11977771234' } })
  await waitFor(() => expect(calls.some((c) => c.url === '/api/whatsapp')).toBe(true))
  const box = await screen.findByRole('checkbox', { name: 'Enviar a confirmação por WhatsApp ao cliente' })
  expect(box).toBeEnabled()
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'paula@example.com' } })
  expect(await screen.findByRole('checkbox', { name: 'Enviar a confirmação por e-mail e WhatsApp ao cliente' })).toBeEnabled()
})

it.each([
  ['the confirmation template is pending', whatsApp(true, 'PENDING')],
  ['WhatsApp is not connected', whatsApp(false, 'APPROVED')],
])('new appointment: a phone-only client cannot be notified when %s; an e-mail enables it', async (_, wa) => {
  const calls = stub(wa)
  renderRoutes([{ path: '/', Component: () => <NewAppointmentForm at={{ date: '2099-03-02' }} onDone={() => {}} onCancel={() => {}} /> }], '/')
  fireEvent.change(await screen.findByLabelText('Telefone'), { target: { value: '11977771234' } })
  await waitFor(() => expect(calls.some((c) => c.url === '/api/whatsapp')).toBe(true))
  await new Promise((r) => setTimeout(r, 50))
  expect(screen.getByRole('checkbox', { name: 'Enviar a confirmação por e-mail ao cliente' })).toBeDisabled()
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'paula@example.com' } })
  expect(screen.getByRole('checkbox', { name: 'Enviar a confirmação por e-mail ao cliente' })).toBeEnabled()
})

it('reschedule: a phone-only client is told by WhatsApp when it can carry the confirmation, and the choice is sent', async () => {
  const calls = stub(whatsApp(true, 'APPROVED'))
  renderRoutes([{ path: '/', Component: () => <RescheduleForm appointment={phoneOnly} onDone={() => {}} onCancel={() => {}} /> }], '/')

  const box = await screen.findByRole('checkbox', { name: 'Avisar o cliente por WhatsApp' })
  await waitFor(() => expect(box).toBeChecked())
  fireEvent.click(screen.getByRole('button', { name: 'Confirmar remarcação' }))
  await waitFor(() => expect(calls.some((c) => c.method !== 'GET' && c.url.startsWith('/api/appointments/a1'))).toBe(true))
  expect(calls.find((c) => c.method !== 'GET' && c.url.startsWith('/api/appointments/a1'))!.body).toMatchObject({ notifyClient: true })
})

it('reschedule: without a ready WhatsApp, a phone-only client gets no notice to choose', async () => {
  const calls = stub(whatsApp(true, 'REJECTED'))
  renderRoutes([{ path: '/', Component: () => <RescheduleForm appointment={phoneOnly} onDone={() => {}} onCancel={() => {}} /> }], '/')

  await screen.findByRole('button', { name: 'Confirmar remarcação' })
  await waitFor(() => expect(calls.some((c) => c.url === '/api/whatsapp')).toBe(true))
  await new Promise((r) => setTimeout(r, 50))
  expect(screen.queryByRole('checkbox', { name: /Avisar o cliente/ })).toBeNull()
})

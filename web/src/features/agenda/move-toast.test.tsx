import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { toast } from 'sonner'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { rescheduleAppointment } from './api/reschedule-appointment'
import { tellMoved } from './api/tell-moved'
import { announceMove } from './move-toast'

// Toasts outlive a test (sonner keeps them app-wide): each test starts with none.
afterEach(() => {
  vi.unstubAllGlobals()
  toast.dismiss()
  cleanup()
})

const moved = {
  id: 'a1', professionalId: 'p2', professionalName: 'Bia', serviceId: 's1', serviceName: 'Sessão', duration: 50, priceCents: 15000,
  clientName: 'Paula Souza', clientEmail: 'paula@example.com', clientPhone: '11977771234', notes: '',
  date: '2099-03-02', time: '15:00', status: 'confirmed' as const, createdAt: '2099-01-01T12:00:00Z', seriesId: null, answer: '' as const,
}
const was = { date: '2099-03-02', time: '10:00', professionalId: 'p1' }

function setup(channel: string) {
  const calls: FetchCall[] = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/appointments/a1/reschedule') {
      const body = c.body as { time: string; professionalId: string; notifyClient: boolean }
      return { status: 200, body: { ...moved, time: body.time, professionalId: body.professionalId, ...(body.notifyClient ? { notice: channel } : {}) } }
    }
    if (c.url === '/api/appointments/a1/tell-moved') return { status: 200, body: { channel } }
    return undefined
  })
  const details = vi.fn()
  renderRoutes([{ path: '/', Component: () => null }], '/')
  announceMove({ was, moved, move: rescheduleAppointment, tell: tellMoved, details })
  return { calls, details }
}

const moves = (calls: FetchCall[]) => calls.filter((c) => c.url === '/api/appointments/a1/reschedule').map((c) => c.body)

// A drop moves at once and tells nobody: the toast says so and "Desfazer"
// moves it back through the same reschedule, to where it was.
it('undoes a drop through the reschedule, back to its place, telling nobody', async () => {
  const { calls } = setup('email')
  expect(await screen.findByText(/O cliente ainda não foi avisado/)).toBeInTheDocument()
  fireEvent.click(screen.getByRole('button', { name: 'Desfazer' }))
  expect(await screen.findByText('Remarcação desfeita')).toBeInTheDocument()
  expect(moves(calls)).toEqual([{ date: '2099-03-02', time: '10:00', professionalId: 'p1', outsideHours: true, notifyClient: false, following: false }])
  expect(calls.some((c) => c.url.endsWith('/tell-moved'))).toBe(false)
})

// "Avisar cliente": the server sends the notice and answers the channel,
// which the owner reads; undoing then tells the client of the way back too.
it('tells the client on request, says the channel, and an undo after it tells them again', async () => {
  const { calls } = setup('email')
  fireEvent.click(await screen.findByRole('button', { name: 'Avisar cliente' }))
  expect(await screen.findByText('Avisamos por e-mail.')).toBeInTheDocument()
  // The toast that says the channel offers "Desfazer" again.
  fireEvent.click(screen.getAllByRole('button', { name: 'Desfazer' }).at(-1)!)
  await waitFor(() => expect(moves(calls)).toHaveLength(1))
  expect(moves(calls)[0]).toMatchObject({ time: '10:00', notifyClient: true })
  expect(await screen.findByText(/de volta a .* às 10:00\. Avisamos por e-mail\./)).toBeInTheDocument()
})

// Nobody could be told: never "avisado"; the rescheduling message is one tap away in the details.
it('says when nobody could be told and leads to the WhatsApp message', async () => {
  const { details } = setup('none')
  fireEvent.click(await screen.findByRole('button', { name: 'Avisar cliente' }))
  const said = (await screen.findByText('Não conseguimos avisar automaticamente.')).closest('li')!
  expect(said.textContent).not.toMatch(/cliente avisado|Avisamos/i)
  fireEvent.click(within(said).getByRole('button', { name: 'Enviar pelo WhatsApp' }))
  expect(details).toHaveBeenCalledWith(moved)
})

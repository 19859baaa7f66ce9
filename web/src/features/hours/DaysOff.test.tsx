import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { ScheduleSettings } from './ScheduleSettings'

afterEach(() => vi.unstubAllGlobals())

const inside = {
  id: 'a1', date: '2026-12-03', time: '10:00', duration: 60, clientName: 'Fernanda Vieira', clientPhone: '11988887777', clientEmail: '',
  serviceName: 'Sessão', serviceId: 's1', professionalId: 'p1', professionalName: 'Ana',
}

// A week of vacation over a confirmed appointment has a way through: the
// form lists it with the block's choices, sends nothing until "Salvar
// folga", and then saves the day off with the owner's plan.
it('lists the appointments of a multi-day vacation and saves the day off with the plan', async () => {
  const calls: FetchCall[] = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/professionals') return { status: 200, body: [{ id: 'p1', name: 'Ana', specialization: '', email: null, photoUrl: '', active: true, ownHours: false }] }
    if (c.url === '/api/days-off' && c.method === 'GET') return { status: 200, body: [] }
    if (c.url === '/api/days-off/preview') return { status: 200, body: { appointments: [inside] } }
    if (c.url === '/api/days-off' && c.method === 'POST')
      return { status: 201, body: { id: 'd1', professionalId: 'p1', professionalName: 'Ana', start: '2026-12-01', end: '2026-12-07', reason: 'Férias', kept: [], outcomes: [{ id: 'a1', action: 'cancelled', channel: 'none' }] } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: ScheduleSettings }], '/')
  const who = await screen.findByLabelText('Quem folga')
  await within(who).findByRole('option', { name: 'Ana' })
  fireEvent.change(who, { target: { value: 'p1' } })
  fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-12-01' } })
  fireEvent.change(screen.getByLabelText('Até (opcional)'), { target: { value: '2026-12-07' } })
  fireEvent.click(screen.getByRole('button', { name: 'Adicionar folga' }))
  const item = await screen.findByRole('listitem', { name: 'Fernanda Vieira' })
  const posted = () => calls.filter((c) => c.url === '/api/days-off' && c.method === 'POST')
  expect(posted()).toEqual([])
  expect(calls.find((c) => c.url === '/api/days-off/preview')!.body).toMatchObject({ professionalId: 'p1', start: '2026-12-01', end: '2026-12-07' })
  const save = screen.getByRole('button', { name: 'Salvar folga' })
  expect(save).toBeDisabled()
  fireEvent.click(within(item).getByRole('button', { name: 'Cancelar e avisar' }))
  expect(calls.some((c) => c.url.startsWith('/api/appointments'))).toBe(false)
  fireEvent.click(save)
  await waitFor(() => expect(posted()).toHaveLength(1))
  expect(posted()[0].body).toMatchObject({ start: '2026-12-01', end: '2026-12-07', plan: [{ id: 'a1', action: 'cancel', notify: true }] })
  const result = await screen.findByRole('listitem', { name: 'Fernanda Vieira' })
  await waitFor(() => expect(result).toHaveTextContent('Não conseguimos avisar automaticamente'))
  expect(within(result).getByRole('link', { name: /Enviar o cancelamento pelo WhatsApp/ })).toBeInTheDocument()
})

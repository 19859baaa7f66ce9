import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { AffectedAppointments, planOf } from './AffectedAppointments'

afterEach(() => vi.unstubAllGlobals())

const base = { date: '2026-11-30', duration: 60, clientEmail: '', professionalId: 'p1', professionalName: 'Ana', serviceName: 'Sessão', serviceId: 's1' }
const list = [
  { ...base, id: 'a1', time: '09:00', clientName: 'Fernanda Vieira', clientPhone: '11988887777' },
  { ...base, id: 'a2', time: '10:00', clientName: 'Rosa Alves', clientPhone: '11966665555' },
]

// The choices are a plan handed to the save: choosing acts on nothing, a
// choice can be changed, and a moved one is left out (no longer inside).
it('hands the save a plan and sends nothing while choosing', async () => {
  const calls: FetchCall[] = stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
  const onSave = vi.fn()
  renderRoutes([{ path: '/', Component: () => <AffectedAppointments list={list} pending={false} onBack={() => {}} onSave={onSave} /> }], '/')
  const fer = await screen.findByRole('listitem', { name: 'Fernanda Vieira' })
  const rosa = screen.getByRole('listitem', { name: 'Rosa Alves' })
  fireEvent.click(within(fer).getByRole('button', { name: 'Cancelar e avisar' }))
  expect(fer).toHaveTextContent('Será cancelado ao salvar')
  fireEvent.click(within(rosa).getByRole('button', { name: 'Cancelar e avisar' }))
  fireEvent.click(within(rosa).getByRole('button', { name: 'Manter' }))
  expect(calls.filter((c) => c.url !== '/api/auth/refresh')).toEqual([])
  fireEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
  expect(onSave).toHaveBeenCalledWith([
    { id: 'a1', action: 'cancel', notify: true },
    { id: 'a2', action: 'keep' },
  ])
})

// "Remarcar" is part of the plan too: the owner picks a free time, nothing
// moves (no reschedule request), and the save carries the move.
it('plans a move with the free times and moves nothing before the save', async () => {
  const calls: FetchCall[] = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/agenda/free-times')) return { status: 200, body: { times: ['16:00', '17:00'] } }
    return undefined
  })
  const onSave = vi.fn()
  renderRoutes([{ path: '/', Component: () => <AffectedAppointments list={list} pending={false} onBack={() => {}} onSave={onSave} /> }], '/')
  const fer = await screen.findByRole('listitem', { name: 'Fernanda Vieira' })
  fireEvent.click(within(fer).getByRole('button', { name: 'Remarcar' }))
  fireEvent.change(within(fer).getByLabelText('Nova data'), { target: { value: '2026-12-01' } })
  fireEvent.click(await within(fer).findByRole('button', { name: '17:00' }))
  fireEvent.click(within(fer).getByRole('button', { name: 'Usar este horário' }))
  expect(fer).toHaveTextContent('Será remarcado ao salvar para')
  fireEvent.click(within(screen.getByRole('listitem', { name: 'Rosa Alves' })).getByRole('button', { name: 'Manter' }))
  expect(calls.filter((c) => c.method !== 'GET' && c.url !== '/api/auth/refresh')).toEqual([])
  fireEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
  expect(onSave).toHaveBeenCalledWith([
    { id: 'a1', action: 'move', date: '2026-12-01', time: '17:00', notify: true },
    { id: 'a2', action: 'keep' },
  ])
  expect(planOf(list, { a2: { id: 'a2', action: 'cancel', notify: true } })).toEqual([{ id: 'a2', action: 'cancel', notify: true }])
})

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

it('leaves a moved appointment out of the plan', () => {
  expect(planOf(list, { a1: 'moved', a2: 'cancel' })).toEqual([{ id: 'a2', action: 'cancel', notify: true }])
})

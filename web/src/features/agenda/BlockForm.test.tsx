import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { BlockForm } from './BlockForm'

afterEach(() => vi.unstubAllGlobals())

const fernanda = {
  id: 'a1', date: '2026-11-30', time: '15:00', duration: 60, clientName: 'Fernanda Vieira', clientPhone: '11988887777', clientEmail: '',
  serviceName: 'Sessão', serviceId: 's1', professionalId: 'p1', professionalName: 'Ana',
}

function setup(affected: unknown[]) {
  const calls: FetchCall[] = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/professionals') return { status: 200, body: [{ id: 'p1', name: 'Ana', specialization: '', email: null, photoUrl: '', active: true, ownHours: false }] }
    if (c.url === '/api/blocks/preview') return { status: 200, body: { appointments: affected } }
    if (c.url === '/api/blocks' && c.method === 'POST') return { status: 201, body: { id: 'b1', professionalId: 'p1', professionalName: 'Ana', date: '2026-11-30', start: '13:00', end: '18:00', reason: '', kept: [] } }
    return undefined
  })
  const done = vi.fn()
  renderRoutes([{ path: '/', Component: () => <BlockForm date="2026-11-30" professionalId="p1" onDone={done} onCancel={() => {}} /> }], '/')
  return { calls, done }
}

async function fillAndBlock() {
  fireEvent.change(await screen.findByLabelText('Início *'), { target: { value: '13:00' } })
  fireEvent.change(screen.getByLabelText('Fim *'), { target: { value: '18:00' } })
  fireEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
}

it('lists the client inside the block and saves only once the owner decided', async () => {
  const { calls, done } = setup([fernanda])
  await fillAndBlock()
  const item = await screen.findByRole('listitem', { name: 'Fernanda Vieira' })
  expect(item).toHaveTextContent('15:00')
  const save = screen.getByRole('button', { name: 'Bloquear' })
  expect(save).toBeDisabled()
  expect(calls.some((c) => c.url === '/api/blocks' && c.method === 'POST')).toBe(false)
  fireEvent.click(screen.getByRole('button', { name: 'Manter' }))
  expect(save).toBeEnabled()
  fireEvent.click(save)
  await waitFor(() => expect(done).toHaveBeenCalled())
  const posted = calls.find((c) => c.url === '/api/blocks' && c.method === 'POST')!
  expect(posted.body).toMatchObject({ date: '2026-11-30', start: '13:00', end: '18:00', keep: ['a1'] })
})

it('saves at once when nobody is inside', async () => {
  const { calls, done } = setup([])
  await fillAndBlock()
  await waitFor(() => expect(done).toHaveBeenCalled())
  expect(calls.find((c) => c.url === '/api/blocks' && c.method === 'POST')!.body).toMatchObject({ keep: [] })
})

import { screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { TimeGrid, type Column, type GridAppointment } from './TimeGrid'

afterEach(() => vi.unstubAllGlobals())

const appointment = (over: Partial<GridAppointment>): GridAppointment => ({
  id: 'a1', professionalId: 'p1', professionalName: 'Ana', serviceId: 's1', serviceName: 'Sessão', duration: 45, bufferBefore: 0, bufferAfter: 0, priceCents: 15000,
  clientName: 'Maria Silva', clientEmail: '', clientPhone: '', notes: '', date: '2099-03-02', time: '10:00', status: 'confirmed', createdAt: '2099-03-01T12:00:00Z',
  seriesId: null, answer: '', deposit: null, ...over,
})

const grid = (a: GridAppointment) => {
  stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
  const column: Column = {
    key: 'p1', title: 'Ana', date: '2099-03-02', professionalId: 'p1', plan: { windows: [{ start: '09:00', end: '12:00' }], closed: '', label: '' },
    appointments: [a], blocks: [],
  }
  renderRoutes([{ path: '/', Component: () => (
    <TimeGrid columns={[column]} today="2099-03-01" now="08:00" minColumn={120} matches={() => true} onOpen={() => {}} onFree={() => {}} onBlock={() => {}} onMove={() => {}} />
  ) }], '/')
}

// Issue 39 §5: on a phone a 45-minute box shows a line or two — the deposit's mark leads the first, so it is seen, not only named.
it('marks a hold awaiting its deposit in its first line, and says "Aguardando sinal" once', async () => {
  grid(appointment({ status: 'awaiting_deposit', deposit: 'pending' }))
  const box = await screen.findByRole('button', { name: /^10:00 Maria Silva, Sessão, Aguardando sinal, Sinal pendente, 45 min/ })
  expect(box.firstElementChild).toHaveAttribute('data-deposit-mark', 'pending')
  expect(box).toHaveTextContent('Aguardando sinal')
  expect(box).not.toHaveTextContent('Sinal pendente') // the status says it: not twice
  expect(box).toHaveAttribute('draggable', 'true')
})

it('a paid deposit keeps its mark first and its words below', async () => {
  grid(appointment({ deposit: 'paid' }))
  const box = await screen.findByRole('button', { name: /Sinal pago/ })
  expect(box.firstElementChild).toHaveAttribute('data-deposit-mark', 'paid')
  expect(box).toHaveTextContent('Sinal pago')
  expect(box).not.toHaveTextContent('Confirmado')
})

import { screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { TimeGrid, type Column, type GridAppointment } from './TimeGrid'

afterEach(() => vi.unstubAllGlobals())

const appointment = (over: Partial<GridAppointment>): GridAppointment => ({
  id: 'a1', professionalId: 'p1', professionalName: 'Ana', serviceId: 's1', serviceName: 'Sessão', duration: 45, bufferBefore: 0, bufferAfter: 0, priceCents: 15000,
  clientName: 'Maria Silva', clientEmail: '', clientPhone: '', notes: '', date: '2099-03-02', time: '10:00', status: 'confirmed', createdAt: '2099-03-01T12:00:00Z',
  seriesId: null, answer: '', deposit: null, personalBusy: false, ...over,
})

const grid = (a: GridAppointment, busy: Column['busy'] = []) => {
  stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
  const column: Column = {
    key: 'p1', title: 'Ana', date: '2099-03-02', professionalId: 'p1', plan: { windows: [{ start: '09:00', end: '12:00' }], closed: '', label: '' },
    appointments: [a], blocks: [], busy,
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

// Issue 42: the professional's own calendar's busy time shows without its title unless the owner turned titles on, and an
// appointment it lies over is marked.
it("draws 'Ocupado (agenda pessoal)' and marks the appointment under it", async () => {
  grid(appointment({ personalBusy: true }), [
    { professionalId: 'p1', date: '2099-03-02', start: '10:30', end: '11:30', title: '' },
    { professionalId: 'p1', date: '2099-03-02', start: '11:30', end: '24:00', title: 'Plantão' },
  ])
  const notes = await screen.findAllByTestId('personal-busy')
  expect(notes.map((n) => n.getAttribute('aria-label'))).toEqual(['Ocupado (agenda pessoal) 10:30–11:30', 'Ocupado (agenda pessoal) 11:30–00:00 · Plantão'])
  expect(notes[0]).toHaveTextContent(/^Ocupado \(agenda pessoal\) 10:30–11:30$/)
  const box = screen.getByRole('button', { name: /^10:00 Maria Silva, Sessão, sem resposta, Conflito com a agenda pessoal, 45 min/ })
  expect(box).toHaveTextContent('Conflito com a agenda pessoal')
})

import { expect, it } from 'vitest'
import { axis, expandGroups, freeCells, lanes, minuteAt, shading } from './grid'

it('shows whole hours covering everything, 08–18 at least', () => {
  expect(axis([])).toEqual({ start: 480, end: 1080 })
  expect(axis([{ start: 7 * 60 + 30, end: 21 * 60 + 10 }])).toEqual({ start: 420, end: 22 * 60 })
})

it('puts overlapping items side by side and leaves the others full width', () => {
  const placed = lanes([
    { item: 'a', span: { start: 600, end: 660 } },
    { item: 'b', span: { start: 630, end: 690 } },
    { item: 'c', span: { start: 690, end: 720 } },
    { item: 'd', span: { start: 600, end: 615 } },
  ])
  const of = (x: string) => placed.find((p) => p.item === x)!
  expect([of('a').lanes, of('b').lanes, of('d').lanes]).toEqual([2, 2, 2])
  expect(of('a').lane).not.toBe(of('d').lane)
  expect(of('a').lane).not.toBe(of('b').lane) // b reuses d's lane once d has ended
  expect(of('c')).toMatchObject({ lane: 0, lanes: 1 })
  expect(placed).toHaveLength(4) // nothing is ever dropped
})

it('shades outside the windows and names the break', () => {
  const s = shading([{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }], { start: 420, end: 1140 })
  expect(s).toEqual([
    { span: { start: 420, end: 480 }, kind: 'outside', label: '' },
    { span: { start: 720, end: 780 }, kind: 'break', label: 'Pausa · até 13:00' },
    { span: { start: 1080, end: 1140 }, kind: 'outside', label: '' },
  ])
  expect(shading([], { start: 480, end: 1080 })).toEqual([{ span: { start: 480, end: 1080 }, kind: 'outside', label: '' }])
})

it('offers the free steps of the windows only', () => {
  expect(freeCells([{ start: '09:00', end: '11:00' }], [{ start: 570, end: 630 }])).toEqual([540, 630])
  expect(freeCells([{ start: '09:00', end: '09:20' }], [])).toEqual([540])
})

it('reads a drop position as the nearest quarter hour inside the axis', () => {
  expect(minuteAt(0, { start: 480, end: 1080 }, 1.2)).toBe(480)
  expect(minuteAt(72 * 2 + 5, { start: 480, end: 1080 }, 1.2)).toBe(600)
  expect(minuteAt(99999, { start: 480, end: 1080 }, 1.2)).toBe(1065)
})

it('reads the server\'s compact groups back into appointments, in their order', () => {
  const item = (id: string, time: string, status: string, seriesId: string | null, answer: string) =>
    [id, 'Ana (antes)', null, 'Sessão', 50, 10, 5, 15000, 'Maria', 'm@example.com', '11988887777', 'diz "olá"', time, status, '2026-11-20T12:00:00Z', seriesId, answer]
  const got = expandGroups([
    { date: '2026-12-01', professionalId: 'p1', items: [item('a1', '09:00', 'confirmed', null, ''), item('a2', '10:00', 'cancelled', 's1', 'cancelled')] },
    { date: '2026-12-01', professionalId: '', items: [item('a3', '11:00', 'no_show', null, 'reschedule')] },
  ])
  expect(got.map((a) => [a.id, a.date, a.professionalId, a.time, a.status, a.seriesId, a.answer])).toEqual([
    ['a1', '2026-12-01', 'p1', '09:00', 'confirmed', null, ''],
    ['a2', '2026-12-01', 'p1', '10:00', 'cancelled', 's1', 'cancelled'],
    ['a3', '2026-12-01', '', '11:00', 'no_show', null, 'reschedule'],
  ])
  expect(got[0]).toEqual({
    id: 'a1', professionalId: 'p1', professionalName: 'Ana (antes)', serviceId: null, serviceName: 'Sessão', duration: 50, bufferBefore: 10,
    bufferAfter: 5, priceCents: 15000, clientName: 'Maria', clientEmail: 'm@example.com', clientPhone: '11988887777', notes: 'diz "olá"',
    date: '2026-12-01', time: '09:00', status: 'confirmed', createdAt: '2026-11-20T12:00:00Z', seriesId: null, answer: '',
  })
})

it('gives each appointment its deposit’s state from the grid’s list, and none to the others', () => {
  const item = (id: string) => [id, 'Ana', 's1', 'Sessão', 60, 0, 0, 10000, 'Maria', '', '', '', '09:00', 'confirmed', '2026-11-20T12:00:00Z', null, '']
  const groups = [{ date: '2026-12-01', professionalId: 'p1', items: [item('a1'), item('a2'), item('a3')] }]
  const got = expandGroups(groups, [{ appointmentId: 'a3', state: 'returned' }, { appointmentId: 'a1', state: 'pending' }, { appointmentId: 'zz', state: 'paid' }])
  expect(got.map((a) => [a.id, a.deposit])).toEqual([['a1', 'pending'], ['a2', undefined], ['a3', 'returned']])
  expect('deposit' in got[1]).toBe(false)
  expect(expandGroups(groups).every((a) => !('deposit' in a))).toBe(true)
})

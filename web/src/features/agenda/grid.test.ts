import { expect, it } from 'vitest'
import { axis, freeCells, lanes, minuteAt, shading } from './grid'

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

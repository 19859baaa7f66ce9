import { expect, it } from 'vitest'
import { addDays } from '@/lib/dates'
import { mondayOf, monthGrid, weekSpan } from './calendar'

it('weeks start on Monday and month grids are whole weeks', () => {
  expect(mondayOf('2026-11-22')).toBe('2026-11-16') // a Sunday belongs to the week before
  expect(mondayOf('2026-11-23')).toBe('2026-11-23')
  const g = monthGrid('2026-11-15')
  expect(g[0]).toBe('2026-10-26')
  expect(g[g.length - 1]).toBe('2026-12-06')
  expect(g.length % 7).toBe(0)
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
})

it('a week title says its dates the short pt-BR way', () => {
  expect(weekSpan('2026-11-23', '2026-11-29')).toBe('23–29 nov')
  expect(weekSpan('2026-11-30', '2026-12-06')).toBe('30 nov – 6 dez')
  expect(weekSpan('2026-12-28', '2027-01-03')).toBe('28 dez 2026 – 3 jan 2027')
  expect(weekSpan('2026-02-02', '2026-02-08')).toBe('2–8 fev')
})

import { expect, it } from 'vitest'
import { addDays } from '@/lib/dates'
import { mondayOf, monthGrid } from './calendar'

it('weeks start on Monday and month grids are whole weeks', () => {
  expect(mondayOf('2026-11-22')).toBe('2026-11-16') // a Sunday belongs to the week before
  expect(mondayOf('2026-11-23')).toBe('2026-11-23')
  const g = monthGrid('2026-11-15')
  expect(g[0]).toBe('2026-10-26')
  expect(g[g.length - 1]).toBe('2026-12-06')
  expect(g.length % 7).toBe(0)
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
})

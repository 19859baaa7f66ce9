import { addDays, addMonths, weekday } from '@/lib/dates'

// The agenda's calendar views: weeks start on Monday (the ISO day arithmetic is lib/dates).

/** Monday of the week of s (weeks start on Monday in the calendar views). */
export const mondayOf = (s: string) => addDays(s, -((weekday(s) + 6) % 7))
/** The Monday-first grid of a month: whole weeks covering it. */
export function monthGrid(s: string): string[] {
  const first = `${s.slice(0, 7)}-01`
  const start = mondayOf(first)
  const last = addDays(addMonths(first, 1), -1)
  const end = addDays(mondayOf(last), 6)
  const out: string[] = []
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(d)
  return out
}

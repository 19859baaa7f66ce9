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

const monthsShort = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez']
const dayMonth = (s: string) => `${Number(s.slice(8))} ${monthsShort[Number(s.slice(5, 7)) - 1]}`

/** A week's dates as a title says them: "23–29 nov", "30 nov – 6 dez", and the years when it spans two ("28 dez 2026 – 3 jan 2027"). */
export function weekSpan(from: string, to: string): string {
  if (from.slice(0, 4) !== to.slice(0, 4)) return `${dayMonth(from)} ${from.slice(0, 4)} – ${dayMonth(to)} ${to.slice(0, 4)}`
  if (from.slice(0, 7) !== to.slice(0, 7)) return `${dayMonth(from)} – ${dayMonth(to)}`
  return `${Number(from.slice(8))}–${dayMonth(to)}`
}

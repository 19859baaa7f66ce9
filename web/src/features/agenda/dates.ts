// Calendar arithmetic on ISO dates (YYYY-MM-DD), in UTC so no zone shifts a day.
export const toISO = (d: Date) => d.toISOString().slice(0, 10)
export const fromISO = (s: string) => new Date(`${s}T00:00:00Z`)
export const addDays = (s: string, n: number) => {
  const d = fromISO(s)
  d.setUTCDate(d.getUTCDate() + n)
  return toISO(d)
}
export const addMonths = (s: string, n: number) => {
  const d = fromISO(s)
  return toISO(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)))
}
/** Monday of the week of s (weeks start on Monday in the calendar views). */
export const mondayOf = (s: string) => addDays(s, -((fromISO(s).getUTCDay() + 6) % 7))
export const weekday = (s: string) => fromISO(s).getUTCDay()
export const todayLocal = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}
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
export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
export const fromMinutes = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`

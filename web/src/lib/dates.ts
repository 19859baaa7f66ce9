/**
 * Dates and times, in one place. A date is an ISO day (YYYY-MM-DD) with its
 * arithmetic done in UTC, so no zone shifts a day; a time of day is HH:MM; an
 * instant (an ISO 8601 timestamp from the server) is shown in pt-BR, in a
 * named zone (the owner's) or else the browser's.
 */

/** Two digits: 7 → '07'. */
export const pad = (n: number) => String(n).padStart(2, '0')

/** The ISO day of a Date, read in UTC. */
export const toISO = (d: Date) => d.toISOString().slice(0, 10)
/** An ISO day as a Date at its UTC midnight. */
export const fromISO = (s: string) => new Date(`${s}T00:00:00Z`)
export const addDays = (s: string, n: number) => {
  const d = fromISO(s)
  d.setUTCDate(d.getUTCDate() + n)
  return toISO(d)
}
/** The first day of the month n months from s's. */
export const addMonths = (s: string, n: number) => {
  const d = fromISO(s)
  return toISO(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)))
}
/** 0 for Sunday to 6 for Saturday. */
export const weekday = (s: string) => fromISO(s).getUTCDay()

/** The day of `now` (by default this moment) in the browser's zone, YYYY-MM-DD. */
export const todayLocal = (now = new Date()) => `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
/** The time of `now` (by default this moment) in the browser's zone, HH:MM. */
export const timeLocal = (now = new Date()) => `${pad(now.getHours())}:${pad(now.getMinutes())}`

/** HH:MM as minutes since midnight. */
export const toMinutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  return h * 60 + m
}
/** Minutes since midnight as HH:MM. */
export const fromMinutes = (m: number) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`

/**
 * An instant as pt-BR shows it in `zone` (an IANA zone, the owner's, such as
 * their profile's timeZone; without one, the browser's): the day
 * ('25/11/2026'), or with `withTime` the day and time ('25/11/2026, 14:30').
 */
export const formatInstant = (instant: string, zone?: string, withTime?: boolean) =>
  withTime
    ? new Date(instant).toLocaleString('pt-BR', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' })
    : new Date(instant).toLocaleDateString('pt-BR', { timeZone: zone })

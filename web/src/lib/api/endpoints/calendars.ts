import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'

export type BusyCalendar = Schemas['CalendarSource']
export type BusyCalendarInput = { url: string; showTitles: boolean; allDay: 'busy' | 'ignore'; onFailure: 'keep' | 'drop' }

export const listCalendars = () => request('get', '/api/calendars', { auth: true })
export const connectCalendar = ({ professionalId, body }: { professionalId: string; body: BusyCalendarInput }) =>
  request('put', '/api/calendars/{id}', { path: { id: professionalId }, body, auth: true })
export const disconnectCalendar = (professionalId: string) => request('delete', '/api/calendars/{id}', { path: { id: professionalId }, auth: true })

/** While a calendar was saved and not read yet, its card asks again every few seconds. */
const waiting = (list: BusyCalendar[] | undefined) => (list ?? []).some((c) => c.lastReadAt === null && c.lastErrorAt === null)

export const calendarsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.calendars,
    queryFn: async () => (await listCalendars()).calendars,
    refetchInterval: (q) => (waiting(q.state.data) ? 3000 : false),
  })

/** The professionals' own calendars Agendei reads busy time from (the profile's card, the dashboard's warning). */
export const useCalendars = () => useQuery(calendarsQueryOptions())

/** A change to a professional's calendar source (any kind): the sources and the grid's busy time are read again. */
export function useCalendarChange<T, R>(fn: (v: T) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.calendars })
      void qc.invalidateQueries({ queryKey: ['appointments', 'grid'] })
    },
  })
}

/** Connects (or changes) a professional's calendar; it is read at once, in the background. */
export const useConnectCalendar = () => useCalendarChange(connectCalendar)

/** Disconnects a professional's calendar: its busy time goes. */
export const useDisconnectCalendar = () => useCalendarChange(disconnectCalendar)

/** "às 14:05" today, "em 27/11 às 14:05" another day: when a calendar was read. */
export function readAt(instant: string, now = new Date()): string {
  const t = new Date(instant)
  const time = t.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' })
  if (t.toDateString() === now.toDateString()) return `às ${time}`
  return `em ${t.toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit' })} às ${time}`
}

/** The card's and the dashboard's words for a calendar that could not be read. */
export const failure = (c: BusyCalendar, now?: Date) => {
  // A Google grant refused is said as the server words it: reading again will not help, connecting again will.
  if (c.kind === 'google' && c.lastError.startsWith('O Google recusou')) return c.lastError.replace(/\.$/, '')
  return c.lastError && c.lastErrorAt ? `Não conseguimos ler sua agenda ${readAt(c.lastErrorAt, now)}: ${c.lastError}` : ''
}

/** The words for a calendar's last failed write of an appointment, or '' when the last one worked. */
export const writeFailure = (cal: Pick<BusyCalendar, 'writeError'>, now?: Date) =>
  cal.writeError ? `Não conseguimos gravar na sua agenda ${readAt(cal.writeError.at, now)}: ${cal.writeError.message}` : ''

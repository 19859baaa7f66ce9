import { readAt, type BusyCalendar } from '@/lib/api/endpoints/calendars'

/** The words for a calendar's last failed write of an appointment, or '' when the last one worked. */
export const writeFailure = (cal: Pick<BusyCalendar, 'writeError'>, now?: Date) =>
  cal.writeError ? `Não conseguimos gravar na sua agenda ${readAt(cal.writeError.at, now)}: ${cal.writeError.message}` : ''

/**
 * On the CalDAV card and the Google row: the last write of an appointment into
 * the owner's calendar that failed, until one works again (the server keeps
 * trying; the owner sees why, e.g. a calendar deleted there or a refused grant).
 */
export function WriteErrorNote({ cal }: { cal: Pick<BusyCalendar, 'writeError'> }) {
  const text = writeFailure(cal)
  if (!text) return null
  return (
    <span role="status" className="block text-xs font-medium break-words text-red-700 dark:text-red-300">
      {text}.
    </span>
  )
}

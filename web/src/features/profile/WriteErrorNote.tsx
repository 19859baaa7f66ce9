import { writeFailure, type BusyCalendar } from '@/lib/api/endpoints/calendars'

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

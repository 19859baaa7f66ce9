import type { QueryClient } from '@tanstack/react-query'
import type { Schemas } from './client'
import { queryKeys } from './keys'

/** An appointment as kept in the cache: the answer's `notice` tells of that one change only, not of the appointment. */
export function withoutNotice(a: Schemas['Appointment']): Schemas['Appointment'] {
  const rest = { ...a }
  delete rest.notice
  return rest
}

/**
 * After the practice's book changed — an appointment written, moved or
 * changed here, or anything the server announces as an "agenda" event from
 * another tab, device or client: every screen that counts appointments
 * (agenda, dashboard, reports, clients), the agenda's blocks and days off,
 * and the notifications the server wrote with the change are read again.
 */
export function refreshAppointments(qc: QueryClient) {
  for (const key of [
    queryKeys.appointments.all,
    queryKeys.dashboard,
    queryKeys.reports.all,
    queryKeys.clients.all,
    queryKeys.notifications,
    queryKeys.blocks.all,
    queryKeys.schedule.all,
    queryKeys.daysOff,
  ]) {
    // A screen's first read still on its way may have been answered before the change. Invalidating would hand it that
    // same read (TanStack reuses an in-flight fetch of a query without data; one with data it cancels and reads again),
    // so such a read is dropped here and the invalidation reads afresh — as it does for a query with data.
    for (const q of qc.getQueryCache().findAll({ queryKey: key, fetchStatus: 'fetching', type: 'active' })) {
      if (q.state.data === undefined) void q.cancel({ silent: true })
    }
    void qc.invalidateQueries({ queryKey: key })
  }
}

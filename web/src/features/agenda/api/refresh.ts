import type { QueryClient } from '@tanstack/react-query'
import { queryKeys } from '@/lib/api/keys'

/**
 * After an appointment was written, moved or changed: every screen that
 * counts appointments (agenda, dashboard, reports, clients) and the
 * notifications the server wrote with it are read again.
 */
export function refreshAppointments(qc: QueryClient) {
  for (const key of [queryKeys.appointments.all, queryKeys.dashboard, queryKeys.reports.all, queryKeys.clients.all, queryKeys.notifications]) {
    void qc.invalidateQueries({ queryKey: key })
  }
}

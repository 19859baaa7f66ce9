import type { QueryClient } from '@tanstack/react-query'
import { queryKeys } from './keys'

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
    void qc.invalidateQueries({ queryKey: key })
  }
}

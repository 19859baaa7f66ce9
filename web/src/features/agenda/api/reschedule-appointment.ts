import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import { refreshAppointments, withoutNotice } from '@/lib/api/refresh'
import type { operations } from '@/lib/api/schema'

export type Move = operations['rescheduleAppointment']['requestBody']['content']['application/json']

export const rescheduleAppointment = ({ id, body }: { id: string; body: Move }) =>
  request('post', '/api/appointments/{id}/reschedule', { path: { id }, body, auth: true })

/** Moves an appointment; every screen that counts appointments or shows free time is read again. */
export function useRescheduleAppointment() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: rescheduleAppointment,
    onSuccess: (moved) => {
      qc.setQueryData(queryKeys.appointments.detail(moved.id), withoutNotice(moved))
      refreshAppointments(qc)
    },
  })
}

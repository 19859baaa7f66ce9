import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type BodyOf } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import { refreshAppointments, withoutNotice } from '@/lib/api/refresh'

/** The statuses an owner may set: 'awaiting_deposit' is the booking's own until "Sinal recebido", never set by hand. */
export type AppointmentStatus = BodyOf<'patch', '/api/appointments/{id}'>['status']

export const setAppointmentStatus = ({ id, status, notifyClient, following }: { id: string; status: AppointmentStatus; notifyClient?: boolean; following?: boolean }) =>
  request('patch', '/api/appointments/{id}', { path: { id }, body: { status, ...(notifyClient ? { notifyClient } : {}), ...(following ? { following } : {}) }, auth: true })

/** Confirms, completes or cancels an appointment; every screen that counts appointments is read again. */
export function useSetAppointmentStatus() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: setAppointmentStatus,
    onSuccess: (updated) => {
      qc.setQueryData(queryKeys.appointments.detail(updated.id), withoutNotice(updated))
      refreshAppointments(qc)
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import { refreshAppointments } from '@/lib/api/refresh'

export type NewAppointment = Schemas['OwnerAppointmentInput']

export const createAppointment = (body: NewAppointment) => request('post', '/api/appointments', { body, auth: true })

/** Writes an appointment into the agenda; every screen that counts appointments or shows free time is read again. */
export function useCreateAppointment() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: createAppointment,
    onSuccess: (created) => {
      qc.setQueryData(queryKeys.appointments.detail(created.id), created)
      refreshAppointments(qc)
    },
  })
}

export const previewAppointments = (body: NewAppointment) => request('post', '/api/appointments/preview', { body, auth: true })

/** The dates a series would take, and which of them are not free; nothing is booked. */
export const usePreviewAppointments = () => useMutation({ mutationFn: previewAppointments })

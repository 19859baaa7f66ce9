import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const getAppointment = (id: string) => request('get', '/api/appointments/{id}', { path: { id }, auth: true })

export const appointmentQueryOptions = (id: string) =>
  // A missing appointment will not appear by asking again.
  queryOptions({ queryKey: queryKeys.appointments.detail(id), queryFn: () => getAppointment(id), retry: false })

/** One of the owner's appointments (the details page). */
export const useAppointment = (id: string) => useQuery(appointmentQueryOptions(id))

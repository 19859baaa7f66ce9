import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

export type AppointmentFilters = operations['listAppointments']['parameters']['query']

export const listAppointments = (query: AppointmentFilters) => request('get', '/api/appointments', { query, auth: true })

export const appointmentsQueryOptions = (query: AppointmentFilters) =>
  queryOptions({ queryKey: queryKeys.appointments.list(query), queryFn: () => listAppointments(query) })

/** The owner's appointments between two dates, filtered (the agenda's day, week and month). */
export const useAppointments = (query: AppointmentFilters, { enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...appointmentsQueryOptions(query), enabled })

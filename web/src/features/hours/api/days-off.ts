import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const getDaysOff = () => request('get', '/api/days-off', { auth: true })
export const createDayOff = (body: Schemas['DayOffInput']) => request('post', '/api/days-off', { body, auth: true })
export const deleteDayOff = (id: string) => request('delete', '/api/days-off/{id}', { path: { id }, auth: true })

export const daysOffQueryOptions = () => queryOptions({ queryKey: queryKeys.daysOff, queryFn: getDaysOff })

/** Days off that have not ended, of the practice and of each professional. */
export const useDaysOff = () => useQuery(daysOffQueryOptions())

function useScheduleChange<T, R>(fn: (v: T) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.daysOff })
      void qc.invalidateQueries({ queryKey: queryKeys.schedule.all })
      void qc.invalidateQueries({ queryKey: queryKeys.appointments.all }) // the agenda grid shades days off
    },
  })
}

/** Closes a date range; the list and the agenda's schedule are read again. */
export const useCreateDayOff = () => useScheduleChange(createDayOff)

/** Removes a day off; the list and the agenda's schedule are read again. */
export const useDeleteDayOff = () => useScheduleChange(deleteDayOff)

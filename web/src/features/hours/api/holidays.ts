import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const getHolidays = (year: number) => request('get', '/api/holidays', { query: { year }, auth: true })
export const setHolidayOpen = ({ key, open }: { key: string; open: boolean }) => request('put', '/api/holidays/{key}', { path: { key }, body: { open }, auth: true })
export const createHoliday = (body: Schemas['HolidayInput']) => request('post', '/api/holidays', { body, auth: true })
export const deleteHoliday = (key: string) => request('delete', '/api/holidays/{key}', { path: { key }, auth: true })

export const holidaysQueryOptions = (year: number) => queryOptions({ queryKey: queryKeys.holidays.year(year), queryFn: () => getHolidays(year) })

/** A year's holidays, national and the owner's own, each closed or open. */
export const useHolidays = (year: number) => useQuery(holidaysQueryOptions(year))

function useHolidayChange<T, R>(fn: (v: T) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.holidays.all })
      void qc.invalidateQueries({ queryKey: queryKeys.schedule.all })
    },
  })
}

/** Opens or closes a national holiday (every year). */
export const useSetHolidayOpen = () => useHolidayChange(setHolidayOpen)

/** Adds a state or municipal holiday. */
export const useCreateHoliday = () => useHolidayChange(createHoliday)

/** Removes one of the owner's own holidays. */
export const useDeleteHoliday = () => useHolidayChange(deleteHoliday)

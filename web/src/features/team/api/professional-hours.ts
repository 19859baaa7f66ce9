import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const getProfessionalHours = (id: string) => request('get', '/api/professionals/{id}/hours', { path: { id }, auth: true })
export const saveProfessionalHours = ({ id, body }: { id: string; body: Schemas['ProfessionalWeekInput'] }) =>
  request('put', '/api/professionals/{id}/hours', { path: { id }, body, auth: true })

export const professionalHoursQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.professionalHours(id), queryFn: () => getProfessionalHours(id) })

/** The week a professional works: their own, or the practice's they follow. */
export const useProfessionalHours = (id: string) => useQuery(professionalHoursQueryOptions(id))

/** Saves a professional's week; it and the agenda's schedule are read again. */
export function useSaveProfessionalHours() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: saveProfessionalHours,
    onSuccess: (week, { id }) => {
      qc.setQueryData(queryKeys.professionalHours(id), week)
      void qc.invalidateQueries({ queryKey: queryKeys.schedule.all })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const saveAvailability = (week: Schemas['WeekInput']) => request('put', '/api/availability', { body: week, auth: true })

/** Saves the weekly opening hours; the hours and the setup checklist are read again. */
export function useSaveAvailability() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: saveAvailability,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.availability })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
      void qc.invalidateQueries({ queryKey: queryKeys.schedule.all })
    },
  })
}

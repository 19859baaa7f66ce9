import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const saveScheduleRules = (body: Schemas['ScheduleRules']) => request('put', '/api/schedule-rules', { body, auth: true })

/** Saves the booking rules; the rules are read again. */
export function useSaveScheduleRules() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: saveScheduleRules,
    onSuccess: (rules) => qc.setQueryData(queryKeys.scheduleRules, rules),
  })
}

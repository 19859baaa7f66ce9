import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export type Reminders = Schemas['Reminders']

export const getReminders = () => request('get', '/api/profile/reminders', { auth: true })
export const saveReminders = (body: Reminders) => request('put', '/api/profile/reminders', { body, auth: true })

/** The owner's automatic reminders: how many, how long before, and the e-mail's text. */
export const useReminders = () => useQuery({ queryKey: queryKeys.reminders, queryFn: getReminders })

/** Saves them; the server re-plans the reminders of future appointments. */
export function useSaveReminders() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: saveReminders,
    onSuccess: (saved) => {
      qc.setQueryData(queryKeys.reminders, saved)
      void qc.invalidateQueries({ queryKey: queryKeys.reminderReach })
    },
  })
}


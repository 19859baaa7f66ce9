import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const updateProfile = (body: Schemas['ProfileInput']) => request('put', '/api/profile', { body, auth: true })

/** Saves the business profile; the name in the header and the setup checklist follow. */
export function useUpdateProfile() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (saved) => {
      qc.setQueryData(queryKeys.profile, saved)
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
      void qc.invalidateQueries({ queryKey: queryKeys.me })
    },
  })
}

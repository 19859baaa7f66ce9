import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const deleteProfessional = (id: string) =>
  request('delete', '/api/professionals/{id}', { path: { id }, auth: true })

/** Removes a team member; the team, services and setup checklist are read again. */
export function useDeleteProfessional() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: deleteProfessional,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.professionals })
      void qc.invalidateQueries({ queryKey: queryKeys.services })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
    },
  })
}

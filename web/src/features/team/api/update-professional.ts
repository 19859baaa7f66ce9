import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const updateProfessional = ({ id, body }: { id: string; body: Schemas['ProfessionalInput'] }) =>
  request('put', '/api/professionals/{id}', { path: { id }, body, auth: true })

/** Changes a team member's details; the team is read again. */
export function useUpdateProfessional() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateProfessional,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.professionals })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const createProfessional = (body: Schemas['ProfessionalInput']) =>
  request('post', '/api/professionals', { body, auth: true })

/** Adds someone to the team; the team and the setup checklist are read again. */
export function useCreateProfessional() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: createProfessional,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.professionals })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const setProfessionalActive = ({ id, active }: { id: string; active: boolean }) =>
  request('patch', '/api/professionals/{id}', { path: { id }, body: { active }, auth: true })

/** Turns a team member on or off for booking; the team, services and setup checklist are read again. */
export function useSetProfessionalActive() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: setProfessionalActive,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.professionals })
      void qc.invalidateQueries({ queryKey: queryKeys.services })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const createService = (body: Schemas['ServiceInput']) => request('post', '/api/services', { body, auth: true })

/** Adds a service; the services list and the setup checklist are read again. */
export function useCreateService() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: createService,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.services })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
    },
  })
}

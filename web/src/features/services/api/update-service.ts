import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const updateService = ({ id, body }: { id: string; body: Schemas['ServiceInput'] }) =>
  request('put', '/api/services/{id}', { path: { id }, body, auth: true })

/** Changes a service; the services list is read again. */
export function useUpdateService() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateService,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.services })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
    },
  })
}

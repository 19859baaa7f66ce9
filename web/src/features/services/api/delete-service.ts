import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const deleteService = (id: string) => request('delete', '/api/services/{id}', { path: { id }, auth: true })

/** Removes a service; the services list and the setup checklist are read again. */
export function useDeleteService() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: deleteService,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.services })
      void qc.invalidateQueries({ queryKey: queryKeys.setup })
    },
  })
}

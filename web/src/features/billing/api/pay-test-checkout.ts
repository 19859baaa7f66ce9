import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const payTestCheckout = (id: string) => request('post', '/api/billing/test-checkout/{id}/pay', { path: { id }, auth: true })

/** Pays the local test provider's checkout; the subscription is read again. */
export function usePayTestCheckout() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: payTestCheckout,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.subscription }),
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

// Shared: the cancel button (components/cancel-subscription) sits on the dashboard and the plan page.
export const cancelSubscription = () => request('post', '/api/subscription/cancel', { auth: true })

/** Ends the renewal; the subscription's state is read again. */
export function useCancelSubscription() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.subscription }),
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const cancelBooking = (token: string) => request('post', '/api/public/bookings/{token}/cancel', { path: { token } })

/** Cancels the booking behind a cancel link; the page shows the answer as it is. */
export function useCancelBooking() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: cancelBooking,
    onSuccess: (c, token) => qc.setQueryData(publicKeys.cancellation(token), c),
  })
}

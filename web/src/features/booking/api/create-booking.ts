import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ApiError, request, type Schemas } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const createBooking = ({ username, body }: { username: string; body: Schemas['BookingInput'] }) =>
  request('post', '/api/public/profiles/{username}/bookings', { path: { username }, body })

/**
 * Books a time. Free days and times are read again after a booking, and after
 * a 409 (someone took the time first), so the form offers only what is free.
 */
export function useCreateBooking() {
  const qc = useQueryClient()
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: publicKeys.times.all })
    void qc.invalidateQueries({ queryKey: publicKeys.days.all })
  }
  return useMutation({
    mutationFn: createBooking,
    onSuccess: refresh,
    onError: (e: Error) => {
      if (e instanceof ApiError && e.status === 409) refresh()
    },
  })
}

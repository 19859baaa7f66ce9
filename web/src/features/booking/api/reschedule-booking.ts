import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const rescheduleBooking = ({ token, date, time }: { token: string; date: string; time: string }) =>
  request('post', '/api/public/bookings/{token}/reschedule', { path: { token }, body: { date, time } })

/** Moves the booking behind a private link; the page shows the new time, and free times are read again. */
export function useRescheduleBooking() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: rescheduleBooking,
    onSuccess: (c, { token }) => {
      qc.setQueryData(publicKeys.cancellation(token), c)
      void qc.invalidateQueries({ queryKey: publicKeys.times.all })
      void qc.invalidateQueries({ queryKey: ['reschedule-times', token] })
    },
  })
}

import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const getRescheduleTimes = (token: string, date: string) =>
  request('get', '/api/public/bookings/{token}/times', { path: { token }, query: { date } })

export const rescheduleTimesQueryOptions = (token: string, date: string) =>
  queryOptions({ queryKey: publicKeys.rescheduleTimes(token, date), queryFn: () => getRescheduleTimes(token, date) })

/**
 * The times the booking behind a private link may move to on a date: decided
 * by the server with the duration and buffers the booking keeps, which the
 * public page's times (the service as it is now) may not match.
 */
export const useRescheduleTimes = (token: string, date: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...rescheduleTimesQueryOptions(token, date), enabled })

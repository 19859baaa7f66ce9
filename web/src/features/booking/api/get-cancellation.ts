import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const getCancellation = (token: string) => request('get', '/api/public/bookings/{token}', { path: { token } })

export const cancellationQueryOptions = (token: string) =>
  // An unknown or expired link will not become valid by asking again.
  queryOptions({ queryKey: publicKeys.cancellation(token), queryFn: () => getCancellation(token), retry: false })

/** The booking behind a client's private cancel link. */
export const useCancellation = (token: string) => useQuery(cancellationQueryOptions(token))

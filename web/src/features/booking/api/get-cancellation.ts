import { queryOptions, useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const getCancellation = (token: string): Promise<Cancellation> => request('get', '/api/public/bookings/{token}', { path: { token } })

type Cancellation = Schemas['Cancellation']

/**
 * While a deposit is due the page asks again by itself: every 3 s until its
 * Pix code is ready (the server makes the charge in the background), then
 * every 15 s until it is paid or released — the client never reloads.
 */
export function depositPoll(data: Cancellation | undefined): number | false {
  const d = data?.deposit
  if (!d || d.state !== 'pending') return false
  return d.copyPaste ? 15_000 : 3_000
}

export const cancellationQueryOptions = (token: string) =>
  // An unknown or expired link will not become valid by asking again.
  queryOptions({
    queryKey: publicKeys.cancellation(token),
    queryFn: () => getCancellation(token),
    retry: false,
    refetchInterval: (q: { state: { data?: unknown } }) => depositPoll(q.state.data as Cancellation | undefined),
  })

/** The booking behind a client's private cancel link. */
export const useCancellation = (token: string) => useQuery(cancellationQueryOptions(token))

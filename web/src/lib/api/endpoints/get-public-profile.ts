import { useQuery } from '@tanstack/react-query'
import { ApiError, request } from '../client'
import { queryKeys } from '../keys'

// Shared by the public profile, the booking form and the owner's preview. Also
// compiled by the light public build (src/agende), whose stand-in for TanStack
// Query has no queryOptions(): the options are a plain object.
export const getPublicProfile = (username: string) => request('get', '/api/public/profiles/{username}', { path: { username } })

export const publicProfileQueryOptions = (username: string) => ({
  queryKey: queryKeys.publicProfile(username),
  queryFn: () => getPublicProfile(username),
  // An unknown username will not appear by asking again; anything else is tried once more.
  retry: (failures: number, e: unknown) => !(e instanceof ApiError && e.status === 404) && failures < 1,
})

export const usePublicProfile = (username: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...publicProfileQueryOptions(username), enabled })

import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, request } from '../client'
import { publicKeys } from '../public-keys'

// Shared by the public profile, the booking form and the owner's preview; the
// light public build (src/agende) compiles it against its TanStack Query stand-in.
export const getPublicProfile = (username: string) => request('get', '/api/public/profiles/{username}', { path: { username } })

export const publicProfileQueryOptions = (username: string) =>
  queryOptions({
    queryKey: publicKeys.publicProfile(username),
    queryFn: () => getPublicProfile(username),
    // An unknown username will not appear by asking again; anything else is tried once more.
    retry: (failures: number, e: Error) => !(e instanceof ApiError && e.status === 404) && failures < 1,
  })

export const usePublicProfile = (username: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...publicProfileQueryOptions(username), enabled })

import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const checkUsername = (username: string) => request('get', '/api/profile/username-availability', { query: { username }, auth: true })

/** Whether a public username is free; always asked afresh (someone may take it meanwhile). */
export const usernameAvailabilityQueryOptions = (username: string) =>
  queryOptions({ queryKey: queryKeys.usernameAvailability(username), queryFn: () => checkUsername(username), staleTime: 0, retry: false })

export const useUsernameAvailability = (username: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...usernameAvailabilityQueryOptions(username), enabled })

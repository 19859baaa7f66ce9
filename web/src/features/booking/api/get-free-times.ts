import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'
import type { operations } from '@/lib/api/schema'

export type TimesQuery = operations['getFreeTimes']['parameters']['query']

export const getFreeTimes = (username: string, query: TimesQuery) =>
  request('get', '/api/public/profiles/{username}/times', { path: { username }, query })

export const freeTimesQueryOptions = (username: string, query: TimesQuery) =>
  queryOptions({ queryKey: publicKeys.times.of(username, query), queryFn: () => getFreeTimes(username, query) })

/** The free start times of one day for this professional and service. */
export const useFreeTimes = (username: string, query: TimesQuery, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...freeTimesQueryOptions(username, query), enabled })

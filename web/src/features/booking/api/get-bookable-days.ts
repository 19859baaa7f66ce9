import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'
import type { operations } from '@/lib/api/schema'

export type DaysQuery = operations['getBookableDays']['parameters']['query']

export const getBookableDays = (username: string, query: DaysQuery) =>
  request('get', '/api/public/profiles/{username}/days', { path: { username }, query })

export const bookableDaysQueryOptions = (username: string, query: DaysQuery) =>
  queryOptions({ queryKey: publicKeys.days.of(username, query), queryFn: () => getBookableDays(username, query) })

/** The days of a month with at least one free time for this professional and service. */
export const useBookableDays = (username: string, query: DaysQuery, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...bookableDaysQueryOptions(username, query), enabled })

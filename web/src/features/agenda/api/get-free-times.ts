import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

export type OwnerTimesQuery = operations['getOwnerFreeTimes']['parameters']['query']

export const getOwnerFreeTimes = (query: OwnerTimesQuery) => request('get', '/api/agenda/free-times', { query, auth: true })

export const ownerFreeTimesQueryOptions = (query: OwnerTimesQuery) =>
  queryOptions({ queryKey: queryKeys.appointments.freeTimes(query), queryFn: () => getOwnerFreeTimes(query) })

/** A professional's free start times of a date, from the public page's slot engine (see the contract). */
export const useOwnerFreeTimes = (query: OwnerTimesQuery, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...ownerFreeTimesQueryOptions(query), enabled })

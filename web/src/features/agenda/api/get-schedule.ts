import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

type Range = NonNullable<operations['getSchedule']['parameters']['query']>

export const getSchedule = (q: Range) => request('get', '/api/schedule', { query: q, auth: true })

export const scheduleQueryOptions = (q: Range) => queryOptions({ queryKey: queryKeys.schedule.range(q), queryFn: () => getSchedule(q) })

/** When the practice (or one professional) works each date of a range, and why a date is closed. */
export const useSchedule = (q: Range) => useQuery(scheduleQueryOptions(q))

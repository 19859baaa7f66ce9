import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const getScheduleRules = () => request('get', '/api/schedule-rules', { auth: true })

export const scheduleRulesQueryOptions = () => queryOptions({ queryKey: queryKeys.scheduleRules, queryFn: getScheduleRules })

/** The practice's booking rules: slot step, notice, booking window, cancellation cutoff. */
export const useScheduleRules = () => useQuery(scheduleRulesQueryOptions())

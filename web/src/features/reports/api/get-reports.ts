import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

export type ReportFilters = NonNullable<operations['getReports']['parameters']['query']>

export const getReports = (query: ReportFilters) => request('get', '/api/reports', { query, auth: true })

export const reportsQueryOptions = (query: ReportFilters) => queryOptions({ queryKey: queryKeys.reports.filtered(query), queryFn: () => getReports(query) })

/** The owner's report of a period, optionally for one professional or service; not asked while the period is incomplete (enabled false). */
export const useReports = (query: ReportFilters, enabled = true) => useQuery({ ...reportsQueryOptions(query), enabled, placeholderData: keepPreviousData })

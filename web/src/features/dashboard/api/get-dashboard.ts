import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const getDashboard = () => request('get', '/api/dashboard', { auth: true })

export const dashboardQueryOptions = () => queryOptions({ queryKey: queryKeys.dashboard, queryFn: getDashboard })

/** Today's appointments and the week's metrics. */
export const useDashboard = () => useQuery(dashboardQueryOptions())

import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

export const getSetupStatus = () => request('get', '/api/setup-status', { auth: true })

export const setupStatusQueryOptions = () => queryOptions({ queryKey: queryKeys.setup, queryFn: getSetupStatus })

/** Which setup steps the owner has done (profile, services, team, hours). */
export const useSetupStatus = () => useQuery(setupStatusQueryOptions())

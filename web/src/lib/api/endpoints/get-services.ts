import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

export const getServices = () => request('get', '/api/services', { auth: true })

export const servicesQueryOptions = () => queryOptions({ queryKey: queryKeys.services, queryFn: getServices })

/** The owner's services (the services screen, and filters elsewhere). */
export const useServices = () => useQuery(servicesQueryOptions())

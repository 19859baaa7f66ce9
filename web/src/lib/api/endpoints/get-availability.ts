import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

export const getAvailability = () => request('get', '/api/availability', { auth: true })

export const availabilityQueryOptions = () => queryOptions({ queryKey: queryKeys.availability, queryFn: getAvailability })

/** The owner's weekly opening hours. */
export const useAvailability = () => useQuery(availabilityQueryOptions())

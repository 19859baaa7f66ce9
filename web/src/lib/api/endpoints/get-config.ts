import { useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

// Also compiled by the light public build (src/agende), whose stand-in for
// TanStack Query has no queryOptions(): the options are a plain object.
export const getConfig = () => request('get', '/api/config')

export const configQueryOptions = () => ({ queryKey: queryKeys.config, queryFn: getConfig, staleTime: Infinity })

/** The product's public settings (contact points). */
export const useConfig = () => useQuery(configQueryOptions())

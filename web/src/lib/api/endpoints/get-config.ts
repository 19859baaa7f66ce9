import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

// Also compiled by the light public build (src/agende), against its TanStack Query stand-in.
export const getConfig = () => request('get', '/api/config')

export const configQueryOptions = () => queryOptions({ queryKey: queryKeys.config, queryFn: getConfig, staleTime: Infinity })

/** The product's public settings (contact points). */
export const useConfig = () => useQuery(configQueryOptions())

import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const listClients = (limit: number, offset: number) => request('get', '/api/clients', { query: { limit, offset }, auth: true })

export const clientsQueryOptions = (limit: number, offset: number) =>
  queryOptions({ queryKey: queryKeys.clients.page(limit, offset), queryFn: () => listClients(limit, offset) })

/** One page of the owner's clients (people who booked), with the total. */
export const useClients = (limit: number, offset: number) => useQuery(clientsQueryOptions(limit, offset))

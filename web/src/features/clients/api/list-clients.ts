import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const listClients = (q: string, limit: number, offset: number) =>
  request('get', '/api/clients', { query: { ...(q ? { q } : {}), limit, offset }, auth: true })

export const clientsQueryOptions = (q: string, limit: number, offset: number) =>
  queryOptions({ queryKey: queryKeys.clients.page(q, limit, offset), queryFn: () => listClients(q, limit, offset), placeholderData: keepPreviousData })

/** One page of the owner's clients (people who booked), with the total; with q, only those whose name, phone or e-mail match it (searched on the server). */
export const useClients = (q: string, limit: number, offset: number) => useQuery(clientsQueryOptions(q, limit, offset))

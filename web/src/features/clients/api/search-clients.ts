import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const searchClients = (q: string) => request('get', '/api/clients/search', { query: { q }, auth: true })

export const clientSearchQueryOptions = (q: string) =>
  queryOptions({ queryKey: queryKeys.clients.search(q), queryFn: () => searchClients(q), enabled: q.trim().length >= 2, placeholderData: keepPreviousData })

/** Clients whose name, e-mail or phone match what the owner types (2 characters or more). */
export const useClientSearch = (q: string) => useQuery(clientSearchQueryOptions(q))

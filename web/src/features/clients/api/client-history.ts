import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

export type ContactInput = operations['updateClientContact']['requestBody']['content']['application/json']

export const getClientHistory = (key: string) => request('get', '/api/clients/history', { query: { key }, auth: true })
export const updateClientContact = (body: ContactInput) => request('put', '/api/clients/contact', { body, auth: true })
export const eraseClient = (identifier: string) => request('post', '/api/clients/erase', { body: { identifier, confirm: true }, auth: true })

export const clientHistoryQueryOptions = (key: string) => queryOptions({ queryKey: queryKeys.clients.history(key), queryFn: () => getClientHistory(key) })

/** One client's page: contacts, every appointment, what was attended and what is scheduled, no-shows. */
export const useClientHistory = (key: string) => useQuery(clientHistoryQueryOptions(key))

/** Corrects a client's name and contacts in all their appointments; the client list and the agenda are read again. */
export function useUpdateClientContact() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateClientContact,
    onSuccess: (h) => {
      qc.setQueryData(queryKeys.clients.history(h.client.identifier), h)
      void qc.invalidateQueries({ queryKey: queryKeys.clients.all })
      void qc.invalidateQueries({ queryKey: queryKeys.appointments.all })
      void qc.invalidateQueries({ queryKey: queryKeys.dashboard })
    },
  })
}

/** LGPD: erases a client's personal data; every screen that shows clients or appointments is read again. */
export function useEraseClient() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: eraseClient,
    onSuccess: () => {
      for (const key of [queryKeys.clients.all, queryKeys.appointments.all, queryKeys.dashboard, queryKeys.notifications]) void qc.invalidateQueries({ queryKey: key })
    },
  })
}

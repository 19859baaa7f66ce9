import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export type WhatsAppStatus = Schemas['WhatsAppStatus']
export type WhatsAppConnectInput = Schemas['WhatsAppConnectInput']

export const getWhatsApp = () => request('get', '/api/whatsapp', { auth: true })
export const connectWhatsApp = (body: WhatsAppConnectInput) => request('put', '/api/whatsapp', { body, auth: true })
export const disconnectWhatsApp = () => request('delete', '/api/whatsapp', { auth: true })

/** The owner's WhatsApp Business connection (never its secrets) and its templates' review status. */
export const useWhatsApp = () => useQuery({ queryKey: queryKeys.whatsapp, queryFn: getWhatsApp })

/** Connects (or replaces) the account; the server checks it with Meta first. */
export function useConnectWhatsApp() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: connectWhatsApp, onSuccess: (st) => qc.setQueryData(queryKeys.whatsapp, st) })
}

/** Removes the connection and its stored secrets. */
export function useDisconnectWhatsApp() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: disconnectWhatsApp, onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.whatsapp }) })
}

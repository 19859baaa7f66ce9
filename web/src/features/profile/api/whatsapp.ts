import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { ConnectionApi } from './connection'

export type WhatsAppStatus = Schemas['WhatsAppStatus']
export type WhatsAppConnectInput = Schemas['WhatsAppConnectInput']
export type WhatsAppSignupInput = Schemas['WhatsAppSignupInput']

export const getWhatsApp = () => request('get', '/api/whatsapp', { auth: true })

/** The owner's WhatsApp Business connection and its templates' review status; the server checks it with Meta before keeping it. */
export const whatsAppConnection: ConnectionApi<WhatsAppStatus, WhatsAppConnectInput> = {
  key: queryKeys.whatsapp,
  get: getWhatsApp,
  connect: (body) => request('put', '/api/whatsapp', { body, auth: true }),
  disconnect: () => request('delete', '/api/whatsapp', { auth: true }),
}

/** The owner's WhatsApp Business connection (never its secrets) and its templates' review status. */
export const useWhatsApp = (enabled = true) => useQuery({ queryKey: queryKeys.whatsapp, queryFn: getWhatsApp, enabled })

/** The card's switch of the Agendei number (the operator's): the status comes back with the switch as set. */
export function useWhatsAppOperator() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (enabled: boolean) => request('put', '/api/whatsapp/operator', { body: { enabled }, auth: true }),
    onSuccess: (st) => qc.setQueryData(queryKeys.whatsapp, st),
  })
}

/** 'Conectar meu WhatsApp': the code and ids of Meta's sign-up window go to the server, which connects the number; the status comes back connected. */
export function useWhatsAppSignup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: WhatsAppSignupInput) => request('post', '/api/whatsapp/signup', { body, auth: true }),
    onSuccess: (st) => qc.setQueryData(queryKeys.whatsapp, st),
  })
}

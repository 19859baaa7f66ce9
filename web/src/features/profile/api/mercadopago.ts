import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export type MercadoPagoStatus = Schemas['MercadoPagoStatus']
export type MercadoPagoConnectInput = Schemas['MercadoPagoConnectInput']

export const getMercadoPago = () => request('get', '/api/mercadopago', { auth: true })
export const connectMercadoPago = (body: MercadoPagoConnectInput) => request('put', '/api/mercadopago', { body, auth: true })
export const disconnectMercadoPago = () => request('delete', '/api/mercadopago', { auth: true })

/** The owner's Mercado Pago connection (never its secrets). */
export const useMercadoPago = () => useQuery({ queryKey: queryKeys.mercadopago, queryFn: getMercadoPago })

/** Connects (or replaces) the account; the server checks the token with Mercado Pago first. */
export function useConnectMercadoPago() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: connectMercadoPago, onSuccess: (st) => qc.setQueryData(queryKeys.mercadopago, st) })
}

/** Removes the connection and its stored secrets. */
export function useDisconnectMercadoPago() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: disconnectMercadoPago, onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.mercadopago }) })
}

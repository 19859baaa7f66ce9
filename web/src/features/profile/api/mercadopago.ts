import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { ConnectionApi } from './connection'

export type MercadoPagoStatus = Schemas['MercadoPagoStatus']
export type MercadoPagoConnectInput = Schemas['MercadoPagoConnectInput']

/** The owner's Mercado Pago connection; the server checks the token with Mercado Pago before keeping it. */
export const mercadoPagoConnection: ConnectionApi<MercadoPagoStatus, MercadoPagoConnectInput> = {
  key: queryKeys.mercadopago,
  get: () => request('get', '/api/mercadopago', { auth: true }),
  connect: (body) => request('put', '/api/mercadopago', { body, auth: true }),
  disconnect: () => request('delete', '/api/mercadopago', { auth: true }),
}

export type MercadoPagoOAuthFinish = Schemas['MercadoPagoOAuthFinish']

/** 'Conectar Mercado Pago': where to send the owner (Mercado Pago's authorization page). */
export const startMercadoPagoOAuth = () => request('post', '/api/mercadopago/oauth/start', { auth: true })

/** What Mercado Pago sent back to /profile/mercadopago, handed to the server (a POST: opening the page changes nothing by itself). */
export const finishMercadoPagoOAuth = (body: MercadoPagoOAuthFinish) => request('post', '/api/mercadopago/oauth/finish', { body, auth: true })

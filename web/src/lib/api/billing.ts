import { useQuery } from '@tanstack/react-query'
import { api, type Schemas } from './client'

export type SubscriptionStatus = Schemas['SubscriptionStatus']
export const subscriptionKey = ['subscription'] as const

const notSubscribed: SubscriptionStatus = { subscribed: false, subscriptionTier: null, subscriptionEnd: null, cancelAtPeriodEnd: false, priceCents: 2190 }

/** SPEC §4: with no user or on failure, the owner is treated as not subscribed. */
export function useSubscription() {
  return useQuery({
    queryKey: subscriptionKey,
    queryFn: async () => {
      try {
        return await api<SubscriptionStatus>('/api/subscription', { auth: true })
      } catch {
        return notSubscribed
      }
    },
  })
}

export const startCheckout = () => api<{ url: string }>('/api/subscription/checkout', { method: 'POST', auth: true })
export const openPortal = () => api<{ url: string }>('/api/subscription/portal', { method: 'POST', auth: true })
export const cancelSubscription = () => api<{ cancellationDate: string }>('/api/subscription/cancel', { method: 'POST', auth: true })

/** Our own pages open in this tab; a payment provider's in a new one. */
export function go(url: string) {
  if (url.startsWith(window.location.origin)) window.location.assign(url)
  else window.open(url, '_blank', 'noopener')
}

export const planFeatures = ['Agendamentos ilimitados', 'Página de agendamento personalizada', 'Gestão completa de clientes', 'Relatórios e estatísticas', 'Suporte prioritário']

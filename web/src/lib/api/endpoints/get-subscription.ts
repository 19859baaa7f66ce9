import { queryOptions, useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'

const notSubscribed: Schemas['SubscriptionStatus'] = { subscribed: false, subscriptionTier: null, subscriptionEnd: null, cancelAtPeriodEnd: false, priceCents: 2190 }

/** SPEC §4: with no user or on failure, the owner is treated as not subscribed. */
export async function getSubscription() {
  try {
    return await request('get', '/api/subscription', { auth: true })
  } catch {
    return notSubscribed
  }
}

export const subscriptionQueryOptions = () => queryOptions({ queryKey: queryKeys.subscription, queryFn: getSubscription })

export const useSubscription = () => useQuery(subscriptionQueryOptions())

import { useMutation } from '@tanstack/react-query'
import { request } from '@/lib/api/client'

export const startCheckout = () => request('post', '/api/subscription/checkout', { auth: true })

/** Opens a checkout session; the caller goes to its URL. */
export const useStartCheckout = () => useMutation({ mutationFn: startCheckout })

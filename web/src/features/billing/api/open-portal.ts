import { useMutation } from '@tanstack/react-query'
import { request } from '@/lib/api/client'

export const openPortal = () => request('post', '/api/subscription/portal', { auth: true })

/** Opens the payment provider's portal; the caller goes to its URL. */
export const useOpenPortal = () => useMutation({ mutationFn: openPortal })

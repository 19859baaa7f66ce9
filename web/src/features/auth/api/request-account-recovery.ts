import { useMutation } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'

export const requestAccountRecovery = (body: Schemas['AccountRecoveryRequest']) => request('post', '/api/auth/account-recovery', { body })

/** Sends a one-time recovery link to the e-mail (signed out; nothing cached changes). */
export const useRequestAccountRecovery = () => useMutation({ mutationFn: requestAccountRecovery })

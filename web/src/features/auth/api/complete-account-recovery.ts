import { useMutation } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'

export const completeAccountRecovery = (body: Schemas['AccountRecoveryCompleteRequest']) => request('post', '/api/auth/account-recovery/complete', { body })

/** Sets a new password and keyword from a recovery link's token (signed out; nothing cached changes). */
export const useCompleteAccountRecovery = () => useMutation({ mutationFn: completeAccountRecovery })

import { useMutation } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'

export const resetPassword = (body: Schemas['PasswordResetRequest']) => request('post', '/api/auth/password-reset', { body })

/** Sets a new password with the recovery keyword (signed out; nothing cached changes). */
export const useResetPassword = () => useMutation({ mutationFn: resetPassword })

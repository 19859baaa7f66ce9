import { useMutation } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'

export const deleteAccount = (body: Schemas['DeleteAccountRequest']) => request('delete', '/api/account', { body, auth: true })

/** Deletes the account for good; the caller signs out (which clears every cached query). */
export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount })

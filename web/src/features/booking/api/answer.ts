import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const getAnswer = (token: string) => request('get', '/api/public/answers/{token}', { path: { token } })
export const applyAnswer = (token: string) => request('post', '/api/public/answers/{token}', { path: { token } })

/** What a one-tap answer link is about; opening it changes nothing. */
export const useAnswerPreview = (token: string) =>
  // An unknown or expired link will not become valid by asking again.
  useQuery(queryOptions({ queryKey: publicKeys.answer(token), queryFn: () => getAnswer(token), retry: false }))

/** Applies the link's answer (idempotent); the page shows the answer as it is. */
export function useApplyAnswer() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: applyAnswer, onSuccess: (a, token) => qc.setQueryData(publicKeys.answer(token), a) })
}

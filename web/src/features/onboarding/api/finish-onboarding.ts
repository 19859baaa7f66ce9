import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'

export const finishOnboarding = (body: Schemas['OnboardingInput']) => request('post', '/api/onboarding', { body, auth: true })

/** Saves profile, services and hours at once; everything the owner sees changes, so every query is read again. */
export function useFinishOnboarding() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: finishOnboarding,
    onSuccess: () => qc.invalidateQueries(),
  })
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'

// The waitlist's public endpoints (issue 28, point 3). Their query keys are
// here, not in public-keys.ts: that list is in every public page's entry, and
// only the waitlist's own chunk reads these.

export const joinWaitlist = ({ username, body }: { username: string; body: Schemas['WaitlistJoin'] }) =>
  request('post', '/api/public/profiles/{username}/waitlist', { path: { username }, body })

/**
 * The practice's public profile for the waitlist form (the booking pages'
 * usePublicProfile lives in a chunk the waitlist page must not share).
 */
export const usePractice = (username: string) =>
  useQuery({ queryKey: ['waitlist-practice', username], queryFn: () => request('get', '/api/public/profiles/{username}', { path: { username } }), retry: false })

/** Joins an owner's waitlist. */
export const useJoinWaitlist = () => useMutation({ mutationFn: joinWaitlist })

/** The entry behind a client's waitlist link (an unknown link will not become valid by asking again). */
export const useWaitlistEntry = (token: string) =>
  useQuery({ queryKey: ['waitlist-entry', token], queryFn: () => request('get', '/api/public/waitlist/{token}', { path: { token } }), retry: false })

/** Leaves the waitlist. */
export const useLeaveWaitlist = () => useMutation({ mutationFn: (token: string) => request('post', '/api/public/waitlist/{token}/leave', { path: { token } }) })

/** The offer behind a claim link. */
export const useWaitlistOffer = (token: string) =>
  useQuery({ queryKey: ['waitlist-offer', token], queryFn: () => request('get', '/api/public/waitlist-offers/{token}', { path: { token } }), retry: false })

/** Claims an offer: a booking through the same path as every booking; a 409 says the time is gone (the offer is read again). */
export function useClaimOffer() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (token: string) => request('post', '/api/public/waitlist-offers/{token}/claim', { path: { token } }),
    onSettled: (_d, _e, token) => void qc.invalidateQueries({ queryKey: ['waitlist-offer', token] }),
  })
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

// The owner's side of the waitlist (issue 28, point 3).

/** How many waiting clients one page of a date's list shows. */
export const waitlistPage = 20

/** A page of the clients waiting for a date, by arrival, each with the latest time offered to them; `total` counts them all. */
export const useWaitlist = (date: string, offset = 0) =>
  useQuery({
    queryKey: [...queryKeys.appointments.waitlist(date), offset],
    queryFn: () => request('get', '/api/waitlist', { query: { date, limit: waitlistPage, offset }, auth: true }),
    placeholderData: keepPreviousData,
  })

/** Offers a free time to an entry by hand (the same e-mail and claim link as a freed time's). */
export function useOfferTime() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, date, time, professionalId }: { id: string; date: string; time: string; professionalId?: string }) =>
      request('post', '/api/waitlist/{id}/offers', { path: { id }, body: { date, time, ...(professionalId ? { professionalId } : {}) }, auth: true }),
    onSuccess: (_o, v) => void qc.invalidateQueries({ queryKey: queryKeys.appointments.waitlist(v.date) }),
  })
}

/** How long an offer's claim link books its time. */
export const useWaitlistSettings = () =>
  useQuery({ queryKey: queryKeys.waitlistSettings, queryFn: () => request('get', '/api/waitlist/settings', { auth: true }) })

export function useSaveWaitlistSettings() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (offerMinutes: number) => request('put', '/api/waitlist/settings', { body: { offerMinutes }, auth: true }),
    onSuccess: (saved) => qc.setQueryData(queryKeys.waitlistSettings, saved),
  })
}

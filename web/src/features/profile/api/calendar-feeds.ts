import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export const listCalendarFeeds = () => request('get', '/api/calendar-feeds', { auth: true })
export const createCalendarFeed = ({ professionalId, includePhone }: { professionalId: string | null; includePhone: boolean }) =>
  request('post', '/api/calendar-feeds', { body: { professionalId, includePhone }, auth: true })
export const setCalendarFeedPhone = ({ id, includePhone }: { id: string; includePhone: boolean }) =>
  request('patch', '/api/calendar-feeds/{id}', { path: { id }, body: { includePhone }, auth: true })
export const deleteCalendarFeed = (id: string) => request('delete', '/api/calendar-feeds/{id}', { path: { id }, auth: true })

/** The owner's private calendar feeds (without their addresses). */
export const useCalendarFeeds = () => useQuery({ queryKey: queryKeys.calendarFeeds, queryFn: async () => (await listCalendarFeeds()).feeds })

function useFeedChange<T, R>(fn: (v: T) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.calendarFeeds }) })
}

/** A new address for the practice (null) or a professional; the old one stops working. */
export const useCreateCalendarFeed = () => useFeedChange(createCalendarFeed)

/** Whether a feed carries the client's phone; its address stays the same. */
export const useSetCalendarFeedPhone = () => useFeedChange(setCalendarFeedPhone)

/** Revokes an address. */
export const useDeleteCalendarFeed = () => useFeedChange(deleteCalendarFeed)

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'

export type CaldavLogin = Schemas['CaldavLogin']
export type CaldavCalendar = Schemas['CaldavCalendar']
export type CaldavInput = CaldavLogin & {
  calendars: string[]
  writeCalendar: string
  showTitles: boolean
  allDay: 'busy' | 'ignore'
  onFailure: 'keep' | 'drop'
}

export const discoverCaldav = ({ professionalId, body }: { professionalId: string; body: CaldavLogin }) =>
  request('post', '/api/calendars/{id}/caldav/discover', { path: { id: professionalId }, body, auth: true })
export const connectCaldav = ({ professionalId, body }: { professionalId: string; body: CaldavInput }) =>
  request('put', '/api/calendars/{id}/caldav', { path: { id: professionalId }, body, auth: true })
export const disconnectCaldav = (professionalId: string) => request('delete', '/api/calendars/{id}/caldav', { path: { id: professionalId }, auth: true })

/** Lists a CalDAV account's calendars (nothing is saved). */
export const useDiscoverCaldav = () => useMutation({ mutationFn: discoverCaldav })

function useCaldavChange<T, R>(fn: (v: T) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.calendars })
      void qc.invalidateQueries({ queryKey: ['appointments', 'grid'] })
    },
  })
}

/** Saves a professional's CalDAV account and its chosen calendars. */
export const useConnectCaldav = () => useCaldavChange(connectCaldav)

/** Disconnects a professional's CalDAV account: its busy time goes. */
export const useDisconnectCaldav = () => useCaldavChange(disconnectCaldav)

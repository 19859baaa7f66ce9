import { useMutation } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { useCalendarChange } from './calendars'

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

/** Saves a professional's CalDAV account and its chosen calendars. */
export const useConnectCaldav = () => useCalendarChange(connectCaldav)

/** Disconnects a professional's CalDAV account: its busy time goes. */
export const useDisconnectCaldav = () => useCalendarChange(disconnectCaldav)

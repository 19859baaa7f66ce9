import { useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'
import { listCalendars, useCalendarChange } from './calendars'

export type GoogleAccount = Schemas['GoogleAccount']

/** What the card and the dashboard say of a Google account whose grant Google refuses (the server's words). */
export const REFUSED_GOOGLE = 'O Google recusou o acesso à agenda: conecte de novo.'

/** Whether the operator configured Google's OAuth client: only then the card offers 'Conectar Google Agenda'. */
export const useGoogleOffered = () =>
  useQuery({ queryKey: [...queryKeys.calendars, 'google-offered'], queryFn: async () => (await listCalendars()).google ?? false, staleTime: Infinity })

/** 'Conectar Google Agenda': where to send the owner (Google's consent page). */
export const startGoogle = (professionalId: string) => request('post', '/api/calendars/{id}/google', { path: { id: professionalId }, auth: true })

/** What Google sent back to /profile/google, handed to the server (a POST: opening the page changes nothing by itself). */
export const finishGoogle = (body: { code: string; state: string; error: string }) => request('post', '/api/calendars/google/finish', { body, auth: true })

/** The account's calendars as Google lists them now, each with whether it counts as busy. */
export const useGoogleCalendars = (professionalId: string) =>
  useQuery({
    queryKey: [...queryKeys.calendars, 'google', professionalId],
    queryFn: () => request('get', '/api/calendars/{id}/google', { path: { id: professionalId }, auth: true }),
    retry: false,
  })

/** Saves which calendars count as busy; the account is read at once. */
export const useChooseGoogle = () =>
  useCalendarChange(({ professionalId, calendars, onFailure }: { professionalId: string; calendars: string[]; onFailure: 'keep' | 'drop' }) =>
    request('put', '/api/calendars/{id}/google', { path: { id: professionalId }, body: { calendars, onFailure }, auth: true }),
  )

/** Disconnects the Google account (revoked at Google); its busy time goes. */
export const useDisconnectGoogle = () =>
  useCalendarChange((professionalId: string) => request('delete', '/api/calendars/{id}/google', { path: { id: professionalId }, auth: true }))

/** Saves the calendar that receives the professional's appointments ('' none); the ones already made are written there. */
export const useChooseGoogleWrite = () =>
  useCalendarChange(({ professionalId, calendar }: { professionalId: string; calendar: string }) =>
    request('put', '/api/calendars/{id}/google/write', { path: { id: professionalId }, body: { calendar }, auth: true }),
  )

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'

export type MessageTemplates = Schemas['MessageTemplates']

export const getMessageTemplates = () => request('get', '/api/message-templates', { auth: true })
export const saveMessageTemplates = (body: MessageTemplates) => request('put', '/api/message-templates', { body, auth: true })

/** The owner's WhatsApp texts (the agenda's and dashboard's one-tap buttons, and the profile's editor). */
export const useMessageTemplates = () => useQuery({ queryKey: queryKeys.messageTemplates, queryFn: getMessageTemplates, staleTime: 5 * 60_000 })

/** Saves the texts; every button uses them at once. */
export function useSaveMessageTemplates() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: saveMessageTemplates, onSuccess: (saved) => qc.setQueryData(queryKeys.messageTemplates, saved) })
}

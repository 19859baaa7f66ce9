import { useMutation } from '@tanstack/react-query'
import { request } from '@/lib/api/client'

/** Tells the client where an appointment moved without a notice (a drag) now stands; answers the channel that carried it. */
export const tellMoved = (id: string) => request('post', '/api/appointments/{id}/tell-moved', { path: { id }, auth: true })

/** "Avisar cliente" after a drag: the server sends the notice a reschedule's notifyClient would have sent. */
export const useTellMoved = () => useMutation({ mutationFn: tellMoved })

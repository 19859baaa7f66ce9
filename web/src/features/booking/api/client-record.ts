import { useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export type ClientRecordCopy = Schemas['RecordCopy']

/**
 * The prontuário part of the client's record through their private link,
 * when the professional allowed it (a 404 otherwise); each read is logged by
 * the server. (The light build's query stand-in, src/agende/query.ts, keeps
 * only the options it implements.)
 */
export const useClientRecord = (token: string) =>
  useQuery({
    queryKey: publicKeys.clientRecord(token),
    queryFn: () => request('get', '/api/public/bookings/{token}/record', { path: { token } }),
    // No record will appear by asking again at once; each opening asks anew (the professional may have allowed it since).
    retry: false,
    staleTime: 0,
  })

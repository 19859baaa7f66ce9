import { useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

/** The confirmed appointments of a date (the dashboard's 'Lembretes de amanhã'). */
export function useConfirmedOn(date: string | undefined) {
  const query = { from: date ?? '', to: date ?? '', status: 'confirmed' as const }
  return useQuery({
    queryKey: queryKeys.appointments.list(query),
    queryFn: () => request('get', '/api/appointments', { query, auth: true }),
    enabled: Boolean(date),
  })
}

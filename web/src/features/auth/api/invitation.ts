import { useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'

/** A professional's invitation by its link's token (issue 43): a read, it changes nothing. */
export const useInvitation = (token: string) =>
  useQuery({ queryKey: ['invite', token], queryFn: () => request('get', '/api/invites/{token}', { path: { token } }), retry: false })

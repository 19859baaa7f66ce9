import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export type Member = Schemas['Member']

/** The professionals' own sign-ins (issue 43), by professional. */
export const useMembers = () =>
  useQuery({
    queryKey: queryKeys.members,
    queryFn: async () => new Map((await request('get', '/api/members', { auth: true })).members.map((m) => [m.professionalId, m])),
  })

/** Sends a professional the invitation (again, after an unused link or a revoke). */
export function useInviteMember() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, email }: { id: string; email: string }) => request('put', '/api/members/{id}', { path: { id }, body: { email }, auth: true }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.members }),
  })
}

/** Ends a professional's own access: their sessions end at once. */
export function useRevokeMember() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => request('delete', '/api/members/{id}', { path: { id }, auth: true }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.members }),
  })
}

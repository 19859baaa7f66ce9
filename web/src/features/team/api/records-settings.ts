import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export type RecordTemplate = Schemas['RecordTemplates']['templates'][number]

/** The professional of the team the owner is ('' none): whose records the owner writes and reads (issue 43). */
export const useRecordSelf = () =>
  useQuery({
    queryKey: queryKeys.records.self,
    queryFn: async () => (await request('get', '/api/records/self', { auth: true })).professionalId,
  })

export function useSetRecordSelf() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (professionalId: string) => request('put', '/api/records/self', { body: { professionalId }, auth: true }),
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.records.self, r.professionalId)
      // The records read before were another professional's.
      qc.removeQueries({ queryKey: queryKeys.records.all, exact: false, predicate: (q) => q.queryKey[1] === 'client' || q.queryKey[1] === 'log' })
    },
  })
}

/** The practice's entry templates (the defaults where none was saved). */
export const useRecordTemplates = () =>
  useQuery({
    queryKey: queryKeys.records.templates,
    queryFn: async () => (await request('get', '/api/record-templates', { auth: true })).templates,
  })

/** The owner saves the practice's templates. */
export function useSaveRecordTemplates() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (templates: RecordTemplate[]) => request('put', '/api/record-templates', { body: { templates }, auth: true }),
    onSuccess: (r) => qc.setQueryData(queryKeys.records.templates, r.templates),
  })
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

type Json<Op extends keyof operations> = operations[Op]['responses'] extends { 200: { content: { 'application/json': infer T } } } ? T : never

export type KeptRecord = Json<'listRecords'>['records'][number]
export type SharedItem = Json<'getRecordsShared'>['shared'][number]
export type RecordEntry = Schemas['RecordEntry']

/**
 * Every record the acting professional keeps (erased clients' included) with
 * its retention dates. Names of clients: never kept once the page is left.
 */
export const useRecordList = () =>
  useQuery({
    queryKey: queryKeys.records.list,
    queryFn: async () => (await request('get', '/api/records/list', { auth: true })).records,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  })

/** The signed destruction of a record past its retention; the list is read again. */
export function useDestroyRecord() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, confirm }: { id: string; confirm: string }) => request('post', '/api/records/{id}/destroy', { path: { id }, body: { confirm }, auth: true }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.records.list }),
  })
}

/** Summaries shared with the one reading, and the entries they are asked to co-sign (each read is logged). */
export const useRecordsShared = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.records.shared,
    queryFn: async () => (await request('get', '/api/records/shared', { auth: true })).shared,
    enabled,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  })

/** The supervisor co-signs a version they were asked to sign. */
export function useCosign() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (versionId: string) => request('post', '/api/records/versions/{id}/cosign', { path: { id: versionId }, auth: true }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.records.shared }),
  })
}

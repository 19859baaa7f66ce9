import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

export type HealthRecord = Schemas['Record']
export type RecordEntry = Schemas['RecordEntry']
export type EntryInput = operations['writeRecordEntry']['requestBody']['content']['application/json']

/**
 * The acting professional's record of a client (null before its first entry).
 * Each read is logged by the server, and a record is never kept in the cache
 * once its page is left (gcTime 0).
 */
export const useRecord = (client: string) =>
  useQuery({
    queryKey: queryKeys.records.of(client),
    queryFn: async () => (await request('get', '/api/records', { query: { client }, auth: true })).record,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  })

/** Signs and saves a new entry; the answer is the record as it now stands. */
export function useWriteEntry(client: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: EntryInput) => request('post', '/api/records/entries', { body, auth: true }),
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.records.of(client), r.record)
      void qc.invalidateQueries({ queryKey: queryKeys.records.log(r.record.id) })
    },
  })
}

/** Signs a correction: a new version of the entry with its reason. */
export function useCorrectEntry(client: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ entryId, body, reason }: { entryId: string; body: string; reason: string }) =>
      request('post', '/api/records/entries/{id}/versions', { path: { id: entryId }, body: { body, reason }, auth: true }),
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.records.of(client), r.record)
      void qc.invalidateQueries({ queryKey: queryKeys.records.log(r.record.id) })
    },
  })
}

/** Who read and wrote the record, and when; loaded only when asked for. */
export const useRecordLog = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.records.log(id),
    queryFn: async () => (await request('get', '/api/records/{id}/log', { path: { id }, auth: true })).log,
    enabled,
    gcTime: 0,
  })

/** The practice's entry templates (the defaults where none was saved). */
export const useRecordTemplates = () =>
  useQuery({
    queryKey: queryKeys.records.templates,
    queryFn: async () => (await request('get', '/api/record-templates', { auth: true })).templates,
  })

/** A client's name and appointments, for the record's header and an appointment's date. */
export const useRecordClient = (key: string) =>
  useQuery({
    queryKey: queryKeys.clients.history(key),
    queryFn: () => request('get', '/api/clients/history', { query: { key }, auth: true }),
  })

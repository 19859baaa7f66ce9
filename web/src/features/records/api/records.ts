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

/** After a change of the record: its answer is the record as it now stands, and the log has a new line. */
function useRecordChange<V>(client: string, mutationFn: (v: V) => Promise<{ record: HealthRecord }>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.records.of(client), r.record)
      void qc.invalidateQueries({ queryKey: queryKeys.records.log(r.record.id) })
    },
  })
}

/** Signs and saves a new entry; the answer is the record as it now stands. */
export const useWriteEntry = (client: string) =>
  useRecordChange(client, (body: EntryInput) => request('post', '/api/records/entries', { body, auth: true }))

/** Signs a correction: a new version of the entry with its reason. */
export const useCorrectEntry = (client: string) =>
  useRecordChange(client, ({ entryId, body, reason }: { entryId: string; body: string; reason: string }) =>
    request('post', '/api/records/entries/{id}/versions', { path: { id: entryId }, body: { body, reason }, auth: true }),
  )

/** Who read and wrote the record, and when; loaded only when asked for. */
export const useRecordLog = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.records.log(id),
    queryFn: async () => await request('get', '/api/records/{id}/log', { path: { id }, auth: true }),
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

export type RecordCopy = Schemas['RecordCopy']
export type RecordDocumentInput = operations['addRecordDocument']['requestBody']['content']['application/json']

/** Registers a document issued from the record (append-only). */
export const useAddDocument = (client: string, id: string) =>
  useRecordChange(client, (body: RecordDocumentInput) => request('post', '/api/records/{id}/documents', { path: { id }, body, auth: true }))

/** Writes the summary a reader ('owner' or a colleague's id) may read; an empty summary withdraws it. */
export const useShareSummary = (client: string, id: string) =>
  useRecordChange(client, (body: { reader: string; summary: string }) => request('put', '/api/records/{id}/share', { path: { id }, body, auth: true }))

/** Asks a supervisor of the team to co-sign one version of an entry. */
export const useRequestCosign = (client: string) =>
  useRecordChange(client, ({ versionId, supervisorId }: { versionId: string; supervisorId: string }) =>
    request('put', '/api/records/versions/{id}/cosign', { path: { id: versionId }, body: { supervisorId }, auth: true }),
  )

/** Lets (or stops letting) the client read the prontuário part through their private link. */
export function useSetClientCopy(client: string, id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (allow: boolean) => request('put', '/api/records/{id}/client-copy', { path: { id }, body: { allow }, auth: true }),
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.records.of(client), (rec: HealthRecord | null | undefined) => (rec ? { ...rec, clientCopy: r.clientCopy } : rec))
      void qc.invalidateQueries({ queryKey: queryKeys.records.log(id) })
    },
  })
}

/**
 * The prontuário part of a record as a document to print or hand to the
 * client. The server logs each read as a print: read once per visit, never
 * again on focus, and never kept once the page is left.
 */
export const useRecordCopy = (id: string) =>
  useQuery({
    queryKey: queryKeys.records.copy(id),
    queryFn: () => request('get', '/api/records/{id}/copy', { path: { id }, auth: true }),
    enabled: id !== '',
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  })

/** The professional of the team the owner is ('' none) — the owner's only (never asked by a professional's own sign-in). */
export const useRecordSelf = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.records.self,
    queryFn: async () => (await request('get', '/api/records/self', { auth: true })).professionalId,
    enabled,
  })

/** Who the record page can name — the author's active colleagues — for a professional signed in as themself too. */
export const useRecordTeam = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.records.team,
    queryFn: () => request('get', '/api/records/team', { auth: true }),
    enabled,
  })

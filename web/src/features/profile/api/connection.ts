import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query'

/**
 * One provider connection's three calls (GET, PUT and DELETE of
 * /api/<provider>) and the query key its status is kept under: what
 * useConnection and ConnectionCard need of a provider.
 */
export type ConnectionApi<Status, Input> = {
  key: QueryKey
  get: () => Promise<Status>
  connect: (body: Input) => Promise<Status>
  disconnect: () => Promise<unknown>
}

/**
 * A provider connection: its status (never its secrets), connect — which
 * also replaces; the server checks the credentials with the provider first
 * and keeps a stored secret sent blank — and disconnect, which removes the
 * connection and its stored secrets.
 */
export function useConnection<Status, Input>(api: ConnectionApi<Status, Input>) {
  const qc = useQueryClient()
  const status = useQuery({ queryKey: api.key, queryFn: api.get })
  const connect = useMutation({ mutationFn: api.connect, onSuccess: (st) => qc.setQueryData(api.key, st) })
  const disconnect = useMutation({ mutationFn: api.disconnect, onSuccess: () => void qc.invalidateQueries({ queryKey: api.key }) })
  return { status, connect, disconnect }
}

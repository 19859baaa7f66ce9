import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, request, type Schemas } from '../client'
import { queryKeys } from '../keys'

export type PixSettings = Schemas['PixSettings']
export type DepositDetails = Schemas['DepositDetails']

/** The owner's Pix for deposits. */
export const usePix = () => useQuery({ queryKey: queryKeys.pix, queryFn: () => request('get', '/api/pix', { auth: true }) })

/** Saves it (validated on the server: the key by its kind, the name and city). */
export function useSavePix() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: Pick<PixSettings, 'keyType' | 'key' | 'name' | 'city'>) => request('put', '/api/pix', { body, auth: true }),
    onSuccess: (saved) => {
      qc.setQueryData(queryKeys.pix, saved)
      void qc.invalidateQueries({ queryKey: queryKeys.services })
    },
  })
}

/** "Sinais pendentes": the bookings waiting for their deposit. */
export const usePendingDeposits = () =>
  useQuery({ queryKey: queryKeys.appointments.pendingDeposits, queryFn: () => request('get', '/api/deposits/pending', { auth: true }) })

/** An appointment's deposit and its history; null when it asked for none. */
export const useDeposit = (id: string) =>
  useQuery({
    queryKey: queryKeys.appointments.deposit(id),
    queryFn: async () => {
      try {
        return await request('get', '/api/appointments/{id}/deposit', { path: { id }, auth: true })
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null
        throw e
      }
    },
  })

/** "Sinal recebido": the booking is confirmed and the client e-mailed. */
export function useDepositReceived() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => request('post', '/api/appointments/{id}/deposit/received', { path: { id }, auth: true }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.appointments.all }),
  })
}

/** "Sinal devolvido": the owner returned the deposit by Pix (recorded with the date). */
export function useDepositReturned() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => request('post', '/api/appointments/{id}/deposit/returned', { path: { id }, auth: true }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.appointments.all }),
  })
}

/** A deposit's state in pt-BR. */
export const depositLabel: Record<string, string> = {
  pending: 'Sinal pendente',
  paid: 'Sinal pago',
  expired: 'Sinal não pago (expirado)',
  cancelled: 'Sinal cancelado',
  to_return: 'Sinal a devolver',
  returned: 'Sinal devolvido',
  retained: 'Sinal retido',
}

/** Who changed it, in pt-BR. */
export const sourceLabel = (s: string) => ({ client: 'cliente', owner: 'você', job: 'prazo encerrado' })[s] ?? s

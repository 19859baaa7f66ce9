import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'

/** An attended session's 'Pago' / 'A receber' (issue 43 §4). */
export type Payment = Schemas['Payment']
export type ClientStatement = Schemas['ClientStatement']

export const getPayment = (id: string) => request('get', '/api/appointments/{id}/payment', { path: { id }, auth: true })
export const setPayment = ({ id, paid }: { id: string; paid: boolean }) =>
  request('put', '/api/appointments/{id}/payment', { path: { id }, body: { paid }, auth: true })

export const paymentQueryOptions = (id: string) => queryOptions({ queryKey: queryKeys.appointments.payment(id), queryFn: () => getPayment(id) })

/** The appointment's payment. */
export const usePayment = (id: string) => useQuery(paymentQueryOptions(id))

/**
 * The one tap: 'Pago' or back to 'A receber'. The appointment, the client's
 * page and statement and the reports' 'A receber' are read again.
 */
export function useSetPayment() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: setPayment,
    onSuccess: (p) => {
      qc.setQueryData(queryKeys.appointments.payment(p.appointmentId), p)
      for (const key of [queryKeys.appointments.all, queryKeys.clients.all, queryKeys.reports.all]) void qc.invalidateQueries({ queryKey: key })
    },
  })
}

export const getClientStatement = (key: string, month: string) => request('get', '/api/clients/statement', { query: { key, month }, auth: true })

export const clientStatementQueryOptions = (key: string, month: string) =>
  queryOptions({ queryKey: queryKeys.clients.statement(key, month), queryFn: () => getClientStatement(key, month) })

/** A client's month: sessions, totals and the Pix for what is due. */
export const useClientStatement = (key: string, month: string) => useQuery(clientStatementQueryOptions(key, month))

/** Queues the statement to the client's e-mail; 'notice' says it was queued. */
export const useEmailStatement = () =>
  useMutation({ mutationFn: (body: { key: string; month: string }) => request('post', '/api/clients/statement/email', { body, auth: true }) })

/** What a session's payment says, in words (never by color alone). */
export function paymentLabel(p: Pick<Payment, 'paid' | 'byDeposit' | 'depositCents' | 'dueCents'>): string {
  if (p.byDeposit) return 'Pago pelo sinal'
  return p.paid ? 'Pago' : 'A receber'
}

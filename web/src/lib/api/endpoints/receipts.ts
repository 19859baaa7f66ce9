import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { download } from '../download'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'

/** 'Emitir recibos do Receita Saúde' (issue 43 §4). */
export type ReceiptSettings = Schemas['ReceiptSettings']
export type MonthReceipts = Schemas['MonthReceipts']

export const useReceiptSettings = () =>
  useQuery({ queryKey: queryKeys.receiptSettings, queryFn: () => request('get', '/api/receita-saude/settings', { auth: true }) })

export function useSaveReceiptSettings() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: ReceiptSettings) => request('put', '/api/receita-saude/settings', { body, auth: true }),
    onSuccess: (saved) => {
      qc.setQueryData(queryKeys.receiptSettings, saved)
      void qc.invalidateQueries({ queryKey: ['appointments', 'receipts'] })
    },
  })
}

/** A month's payments received, one receipt each. */
export const useMonthReceipts = (month: string) =>
  useQuery({ queryKey: queryKeys.receipts(month), queryFn: () => request('get', '/api/receita-saude/receipts', { query: { month }, auth: true }) })

/** The Carnê-Leão occupations of the health professions (the server's payments.Occupations). */
export const occupations: [string, string][] = [
  ['255', 'Psicólogo'],
  ['254', 'Psicanalista'],
  ['225', 'Médico'],
  ['226', 'Odontólogo'],
  ['227', 'Enfermeiro, nutricionista, farmacêutico e afins'],
  ['230', 'Fonoaudiólogo'],
  ['231', 'Fisioterapeuta'],
  ['232', 'Terapeuta ocupacional'],
  ['224', 'Profissional da educação física'],
  ['221', 'Biólogo, biomédico e afins'],
  ['515', 'Trabalhador dos serviços de saúde'],
]

/** "52998224725" as "529.982.247-25", a CNPJ as "11.222.333/0001-81"; anything else as it is. */
export function formatDocument(d: string): string {
  if (/^\d{11}$/.test(d)) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
  if (/^\d{14}$/.test(d)) return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`
  return d
}

/** The month's file for the Carnê-Leão Web's import. */
export const downloadCarneLeao = (month: string) => download('/api/receita-saude/carne-leao', `?${new URLSearchParams({ month })}`, `carne-leao-${month}.csv`)

export const useDownloadCarneLeao = () => useMutation({ mutationFn: downloadCarneLeao })

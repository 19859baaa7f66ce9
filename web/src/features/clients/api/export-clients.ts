import { useMutation } from '@tanstack/react-query'
import { download } from '@/lib/api/download'

/** The clients as a CSV file: all of them, or those a search found. */
export const exportClients = (q: string) => download('/api/clients/export', q ? `?${new URLSearchParams({ q })}` : '', 'clientes-agendei.csv')

export const useExportClients = () => useMutation({ mutationFn: exportClients })

/** LGPD: everything stored about one client, as JSON or CSV. */
export const exportClientData = ({ key, format }: { key: string; format: 'json' | 'csv' }) =>
  download('/api/clients/data', `?${new URLSearchParams({ key, format })}`, `cliente-agendei.${format}`)

export const useExportClientData = () => useMutation({ mutationFn: exportClientData })

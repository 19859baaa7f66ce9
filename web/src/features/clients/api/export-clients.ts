import { useMutation } from '@tanstack/react-query'
import { ApiError } from '@/lib/api/client'
import { refreshedToken } from '@/lib/auth'
import type { paths } from '@/lib/api/schema'

/**
 * A file the server makes for the owner (a CSV, a JSON export). Not read
 * through request(): the file is fetched with the same token and one
 * refresh after a 401, and handed over as a Blob with its name.
 */
async function download(path: keyof paths, query: string, fallback: string): Promise<{ name: string; blob: Blob }> {
  const send = (token: string | null) => fetch(path + query, { credentials: 'same-origin', headers: token ? { Authorization: `Bearer ${token}` } : {} })
  let res = await send(refreshedToken.current())
  if (res.status === 401) res = await send(await refreshedToken.refresh())
  if (!res.ok) {
    const err = (await res.json().catch(() => null))?.error as { code?: string; message?: string } | undefined
    throw new ApiError(res.status, err?.code ?? 'unknown', err?.message ?? 'Não foi possível exportar. Tente novamente.')
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? fallback
  return { name, blob: await res.blob() }
}

/** The clients as a CSV file: all of them, or those a search found. */
export const exportClients = (q: string) => download('/api/clients/export', q ? `?${new URLSearchParams({ q })}` : '', 'clientes-agendei.csv')

export const useExportClients = () => useMutation({ mutationFn: exportClients })

/** LGPD: everything stored about one client, as JSON or CSV. */
export const exportClientData = ({ key, format }: { key: string; format: 'json' | 'csv' }) =>
  download('/api/clients/data', `?${new URLSearchParams({ key, format })}`, `cliente-agendei.${format}`)

export const useExportClientData = () => useMutation({ mutationFn: exportClientData })

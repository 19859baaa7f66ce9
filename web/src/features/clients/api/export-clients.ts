import { useMutation } from '@tanstack/react-query'
import { ApiError } from '@/lib/api/client'
import { refreshedToken } from '@/lib/auth'
import type { paths } from '@/lib/api/schema'

const path: keyof paths = '/api/clients/export'

/**
 * The clients as a CSV file. Not JSON, so not through request(): the file is
 * read with fetch, with the same token and one refresh after a 401.
 */
export async function exportClients(): Promise<{ name: string; blob: Blob }> {
  const send = (token: string | null) => fetch(path, { credentials: 'same-origin', headers: token ? { Authorization: `Bearer ${token}` } : {} })
  let res = await send(refreshedToken.current())
  if (res.status === 401) res = await send(await refreshedToken.refresh())
  if (!res.ok) {
    const err = (await res.json().catch(() => null))?.error as { code?: string; message?: string } | undefined
    throw new ApiError(res.status, err?.code ?? 'unknown', err?.message ?? 'Não foi possível exportar os clientes. Tente novamente.')
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'clientes-agendei.csv'
  return { name, blob: await res.blob() }
}

export const useExportClients = () => useMutation({ mutationFn: exportClients })

import { ApiError } from '@/lib/api/client'
import { refreshedToken } from '@/lib/auth'
import type { paths } from '@/lib/api/schema'

/**
 * A file the server makes for the owner (a CSV, a JSON export). Not read
 * through request(): the file is fetched with the same token and one
 * refresh after a 401, and handed over as a Blob with its name.
 */
export async function download(path: keyof paths, query: string, fallback: string): Promise<{ name: string; blob: Blob }> {
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

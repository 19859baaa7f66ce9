import { ApiError, NetworkError } from '@/lib/api/client'
import { refreshedToken } from '@/lib/auth'

/**
 * Sends one file as multipart/form-data (request() does JSON only) with the
 * session's token and one refresh after a 401, and answers the JSON body.
 */
export async function upload<T>(path: string, field: string, file: File): Promise<T> {
  const body = new FormData()
  body.append(field, file)
  const send = async (token: string | null) => {
    try {
      return await fetch(path, {
        method: 'POST',
        body,
        credentials: 'same-origin',
        headers: { 'X-Agendei-Client': 'web', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      })
    } catch {
      throw new NetworkError()
    }
  }
  let res = await send(refreshedToken.current())
  if (res.status === 401) res = await send(await refreshedToken.refresh())
  const data = await res.json().catch(() => null)
  if (!res.ok) throw new ApiError(res.status, data?.error?.code ?? 'unknown', data?.error?.message ?? '')
  return data as T
}

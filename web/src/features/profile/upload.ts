import { ApiError, NetworkError } from '@/lib/api/client'
import { refreshedToken } from '@/lib/auth'

/** Sends the photo as multipart/form-data (the JSON client does not do files). */
export async function uploadPhoto(file: File): Promise<string> {
  const body = new FormData()
  body.append('photo', file)
  const send = async (token: string | null) => {
    try {
      return await fetch('/api/profile/photo', {
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
  return data.photoUrl as string
}

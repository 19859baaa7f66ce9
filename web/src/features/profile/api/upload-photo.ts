import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ApiError, NetworkError, type ResponseOf } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { paths } from '@/lib/api/schema'
import { refreshedToken } from '@/lib/auth'

const path: keyof paths = '/api/profile/photo'

/** Sends the photo as multipart/form-data (request() does JSON only), with one refresh after a 401. */
export async function uploadPhoto(file: File): Promise<ResponseOf<'post', '/api/profile/photo'>> {
  const body = new FormData()
  body.append('photo', file)
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
  return data
}

/** Replaces the profile photo; the profile (and its photo URL) is read again. */
export function useUploadPhoto() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: uploadPhoto,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.profile }),
  })
}

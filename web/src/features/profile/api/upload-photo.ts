import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type ResponseOf } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { paths } from '@/lib/api/schema'
import { upload } from '@/lib/api/upload'

const path: keyof paths = '/api/profile/photo'

/** Sends the photo as multipart/form-data, with one refresh after a 401. */
export const uploadPhoto = (file: File) => upload<ResponseOf<'post', '/api/profile/photo'>>(path, 'photo', file)

/** Replaces the profile photo; the profile (and its photo URL) is read again. */
export function useUploadPhoto() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: uploadPhoto,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.profile }),
  })
}

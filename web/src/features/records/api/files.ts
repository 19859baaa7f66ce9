import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ResponseOf } from '@/lib/api/client'
import { download } from '@/lib/api/download'
import { queryKeys } from '@/lib/api/keys'
import type { paths } from '@/lib/api/schema'
import { upload } from '@/lib/api/upload'

/** Attaches a file to the record (sealed by the server before it is stored); the answer is the record as it now stands. */
export function useAttachFile(client: string, recordId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (file: File) => upload<ResponseOf<'post', '/api/records/{id}/files'>>(`/api/records/${encodeURIComponent(recordId)}/files`, 'file', file),
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.records.of(client), r.record)
      void qc.invalidateQueries({ queryKey: queryKeys.records.log(recordId) })
    },
  })
}

/** Downloads an attached file, opened by the server for the record's professional (the read is logged). */
export const downloadFile = (recordId: string, fileId: string, name: string) =>
  download(`/api/records/${encodeURIComponent(recordId)}/files/${encodeURIComponent(fileId)}` as keyof paths, '', name)

export const useDownloadFile = () => useMutation({ mutationFn: ({ recordId, fileId, name }: { recordId: string; fileId: string; name: string }) => downloadFile(recordId, fileId, name) })

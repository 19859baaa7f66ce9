import { Paperclip } from 'lucide-react'
import { useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { errorMessage } from '@/lib/api/client'
import { saveFile } from '@/lib/save-file'
import type { HealthRecord } from './api/records'
import { useAttachFile, useDownloadFile } from './api/files'

const sizeText = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1).replace('.', ',')} MB` : `${Math.max(1, Math.round(n / 1024))} KB`)

/**
 * 'Anexos' (issue 43 §1): files attached to the record — a scanned test, a
 * report received — a PDF or an image up to 5 MB, sealed by the server before
 * it is stored, kept for good (the list only grows), downloaded by the
 * record's professional alone.
 */
export function RecordFiles({ record, client }: { record: HealthRecord; client: string }) {
  const input = useRef<HTMLInputElement>(null)
  const [error, setError] = useState('')
  const attach = useAttachFile(client, record.id)
  const get = useDownloadFile()
  const files = record.files ?? []

  function send(file: File | undefined) {
    setError('')
    if (!file) return
    attach.mutate(file, {
      onSuccess: () => toast.success('Arquivo anexado'),
      onError: (e) => setError(errorMessage(e, 'Não foi possível anexar o arquivo.')),
      onSettled: () => {
        if (input.current) input.current.value = ''
      },
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Anexos</CardTitle>
        <CardDescription>PDF ou imagem de até 5MB. Os anexos ficam guardados com o prontuário e não podem ser apagados.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {files.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum anexo.</p>
        ) : (
          <ul aria-label="Anexos do prontuário" className="divide-y divide-stone-100 dark:divide-stone-800">
            {files.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0 wrap-anywhere">
                  <span className="font-medium">{f.name}</span> · {sizeText(f.size)}
                  <span className="block text-xs text-stone-600 dark:text-stone-400">{f.signature}</span>
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={get.isPending}
                  onClick={() =>
                    get.mutate(
                      { recordId: record.id, fileId: f.id, name: f.name },
                      { onSuccess: saveFile, onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível baixar o arquivo.') }) },
                    )
                  }
                  aria-label={`Baixar ${f.name}`}
                >
                  Baixar
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="grid gap-1">
          <label htmlFor="record-file" className="text-sm font-medium">
            Anexar arquivo
          </label>
          <input
            ref={input}
            id="record-file"
            type="file"
            accept="application/pdf,image/jpeg,image/png,image/webp,image/gif"
            disabled={attach.isPending}
            onChange={(e) => send(e.target.files?.[0])}
            className="text-sm file:mr-3 file:rounded-lg file:border file:border-stone-300 file:bg-white file:px-3 file:py-1.5 file:text-sm dark:file:border-stone-700 dark:file:bg-stone-900"
          />
          {attach.isPending ? (
            <p className="flex items-center gap-1 text-sm" role="status">
              <Paperclip className="size-4" aria-hidden /> Anexando...
            </p>
          ) : null}
          {error ? (
            <p className="text-sm text-red-700 dark:text-red-300" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      </CardContent>
    </Card>
  )
}

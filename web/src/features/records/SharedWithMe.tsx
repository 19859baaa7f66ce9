import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { errorMessage } from '@/lib/api/client'
import { formatInstant } from '@/lib/dates'
import { useCosign, useRecordsShared, type SharedItem } from './api/retention'

/**
 * 'Compartilhados comigo': the summaries a colleague chose to show me (the
 * owner reads those shown to the owner) and the entries I am asked to
 * co-sign as their supervisor. Each opening is logged in the record's log.
 */
export function SharedWithMe() {
  const shared = useRecordsShared()
  const items = shared.data ?? []
  const summaries = items.filter((i) => !i.entry)
  const cosigns = items.filter((i) => i.entry)
  return (
    <section className="grid gap-3" aria-labelledby="shared-title">
      <h2 id="shared-title" className="text-lg font-semibold">
        Compartilhados comigo
      </h2>
      {shared.isLoading ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">Carregando...</p>
      ) : shared.isError ? (
        <p className="text-sm" role="alert">
          {errorMessage(shared.error, 'Não foi possível carregar o que foi compartilhado com você.')}
        </p>
      ) : items.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">Nada compartilhado com você.</p>
      ) : (
        <>
          {summaries.length > 0 ? (
            <ul className="grid gap-3" aria-label="Resumos compartilhados">
              {summaries.map((s) => (
                <li key={`${s.recordId}-summary`}>
                  <Card className="grid gap-2 p-4">
                    <p className="font-semibold wrap-break-word">{s.client}</p>
                    <p className="text-sm text-stone-600 dark:text-stone-400 wrap-break-word">Resumo de {s.professional}, em {formatInstant(s.updatedAt)}</p>
                    <p className="whitespace-pre-wrap text-sm wrap-break-word">{s.summary}</p>
                  </Card>
                </li>
              ))}
            </ul>
          ) : null}
          {cosigns.length > 0 ? (
            <ul className="grid gap-3" aria-label="Para coassinar">
              {cosigns.map((c) => (
                <li key={c.entry?.id}>
                  <CosignCard item={c} />
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  )
}

function CosignCard({ item }: { item: SharedItem }) {
  const cosign = useCosign()
  // Said only after the server's 2xx; the list read again then carries the date.
  const [done, setDone] = useState(false)
  const entry = item.entry!
  const signedAt = item.signedAt
  return (
    <Card className="grid gap-2 p-4">
      <p className="font-semibold wrap-break-word">{item.client}</p>
      <p className="text-sm text-stone-600 dark:text-stone-400 wrap-break-word">
        Anotação de {entry.authorName}
        {entry.authorCouncil ? `, ${entry.authorCouncil}` : ''} — pede a sua coassinatura
      </p>
      <p className="whitespace-pre-wrap text-sm wrap-break-word">{entry.body}</p>
      <p className="text-xs text-stone-600 dark:text-stone-400 wrap-break-word">{entry.signature}</p>
      {signedAt ? (
        <p className="text-sm font-medium text-green-700 dark:text-green-300" role="status">
          Coassinado em {formatInstant(signedAt, undefined, true)}
        </p>
      ) : done ? (
        <p className="text-sm font-medium text-green-700 dark:text-green-300" role="status">
          Coassinado
        </p>
      ) : (
        <div>
          <Button
            size="sm"
            disabled={cosign.isPending}
            onClick={() =>
              cosign.mutate(entry.id, {
                onSuccess: () => {
                  setDone(true)
                  toast.success('Coassinado')
                },
                onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível coassinar. Tente novamente.') }),
              })
            }
          >
            {cosign.isPending ? 'Coassinando...' : 'Coassinar'}
          </Button>
        </div>
      )}
    </Card>
  )
}

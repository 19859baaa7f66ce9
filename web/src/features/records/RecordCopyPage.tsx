import { Printer } from 'lucide-react'
import { useParams, useSearchParams } from 'react-router'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'
import { brDate } from '@/lib/format'
import { useRecordCopy, type RecordEntry } from './api/records'
import { Signed, templateLabel } from './signed'

/**
 * The client's copy of a record (issue 43 §2; CFP 001/2009 art. 5 II): the
 * prontuário part only — the server leaves every registro sigiloso out — with
 * each entry's versions and signatures, to print or hand over. The server
 * logs each read as a print; the page's chrome and actions stay off paper.
 */
export default function RecordCopyPage() {
  const { key = '' } = useParams()
  const [params] = useSearchParams()
  const id = params.get('record') ?? ''
  const copy = useRecordCopy(id)
  const back = (
    <div className="print:hidden">
      <BackLink to={`/clients/${encodeURIComponent(key)}/prontuario`}>Voltar para o prontuário</BackLink>
    </div>
  )
  if (id !== '' && copy.isLoading) return <PageSpinner />
  if (id === '' || copy.isError || !copy.data)
    return (
      <div className="mx-auto grid max-w-3xl gap-4">
        {back}
        <p role="alert">{errorMessage(copy.error, 'Não foi possível abrir a cópia do prontuário.')}</p>
      </div>
    )
  const c = copy.data
  return (
    <div className="mx-auto grid max-w-3xl gap-6 print:max-w-none print:gap-3">
      {back}
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight wrap-break-word">Prontuário de {c.client}</h1>
        <dl className="grid gap-1 text-sm">
          <div className="wrap-break-word">
            <dt className="inline text-stone-600 dark:text-stone-400 print:text-stone-800">Consultório: </dt>
            <dd className="inline">{c.practice}</dd>
          </div>
          <div className="wrap-break-word">
            <dt className="inline text-stone-600 dark:text-stone-400 print:text-stone-800">Profissional: </dt>
            <dd className="inline">{c.council ? `${c.professional} — ${c.council}` : c.professional}</dd>
          </div>
          <div className="wrap-break-word">
            <dt className="inline text-stone-600 dark:text-stone-400 print:text-stone-800">Cliente: </dt>
            <dd className="inline">{c.client}</dd>
          </div>
        </dl>
      </header>
      <div className="print:hidden">
        <Button type="button" variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden /> Imprimir
        </Button>
      </div>
      {c.entries.length === 0 ? (
        <p className="text-sm">Nenhuma anotação de prontuário.</p>
      ) : (
        <ol className="grid gap-4 print:gap-3" aria-label="Anotações do prontuário">
          {c.entries.map((versions) => (
            <li key={versions[0].entryId}>
              <CopyEntry versions={versions} />
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/** One entry as printed: its latest version, then every earlier one, each signed (nothing folded away on paper). */
function CopyEntry({ versions }: { versions: RecordEntry[] }) {
  const [latest, ...older] = versions
  return (
    <Card className="grid gap-3 p-4 break-inside-avoid print:rounded-none print:border-x-0 print:border-t-0 print:shadow-none">
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        <span className="font-semibold">{templateLabel[latest.template] ?? latest.template}</span>
        <span>Atendimento em {brDate(latest.sessionDate)}</span>
      </p>
      <p className="text-sm whitespace-pre-wrap wrap-break-word">{latest.body}</p>
      <Signed entry={latest} />
      {older.length > 0 ? (
        <div className="grid gap-3 border-t border-stone-200 pt-2 text-sm dark:border-stone-800">
          <p className="font-medium">Versões anteriores</p>
          {older.map((v) => (
            <div key={v.id} className="grid gap-1">
              <p className="whitespace-pre-wrap wrap-break-word">{v.body}</p>
              <Signed entry={v} />
            </div>
          ))}
        </div>
      ) : null}
    </Card>
  )
}

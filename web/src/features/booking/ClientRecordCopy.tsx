import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api/client'
import { useClientRecord } from './api/client-record'

const templateLabel: Record<string, string> = {
  anamnese: 'Anamnese',
  evolucao: 'Evolução',
  encerramento: 'Encerramento ou encaminhamento',
  livre: 'Anotação',
}

/** 'dd/mm/aaaa' of a YYYY-MM-DD date. */
const dateText = (iso: string) => iso.split('-').reverse().join('/')

/**
 * 'Meu prontuário' on the client's private page (issue 43 §2): the
 * prontuário part of their record — never a registro sigiloso — once the
 * professional allowed it, printable. Loaded lazily: the private page's first
 * visit does not carry it. Shown in place of the booking, so printing prints
 * the record alone.
 */
export default function ClientRecordCopy({ token, onClose }: { token: string; onClose: () => void }) {
  const { data, error, isLoading } = useClientRecord(token)
  const back = (
    <Button variant="outline" className="print:hidden" onClick={onClose}>
      Voltar ao agendamento
    </Button>
  )
  if (isLoading) return <PageSpinner />
  if (error || !data) {
    const none = error instanceof ApiError && error.status === 404
    return (
      <main className="mx-auto grid max-w-lg gap-4 px-4 py-12">
        <h1 className="text-2xl font-bold tracking-tight">Meu prontuário</h1>
        <p role="status" className="text-stone-600 dark:text-stone-400">
          {none ? 'Nenhum prontuário disponível por este link.' : errorMessage(error, 'Não foi possível abrir o prontuário. Tente novamente.')}
        </p>
        <div>{back}</div>
      </main>
    )
  }
  return (
    <main className="mx-auto grid max-w-2xl gap-4 px-4 py-12 print:max-w-none print:py-0">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Prontuário de {data.client}</h1>
        <p className="mt-1 text-sm wrap-break-word">{data.practice}</p>
        <p className="text-sm wrap-break-word">
          {data.professional}
          {data.council ? ` — ${data.council}` : ''}
        </p>
      </div>
      {data.entries.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">Nenhuma anotação no prontuário.</p>
      ) : (
        <ol className="grid gap-4" aria-label="Anotações do prontuário">
          {data.entries.map((versions) => {
            const [latest, ...older] = versions
            return (
              <li key={latest.entryId} className="grid gap-1 rounded-2xl border border-stone-200 p-4 break-inside-avoid dark:border-stone-800">
                <p className="text-sm font-medium">
                  {templateLabel[latest.template] ?? 'Anotação'} — atendimento de {dateText(latest.sessionDate)}
                </p>
                <p className="whitespace-pre-wrap text-sm wrap-break-word">{latest.body}</p>
                <p className="text-xs text-stone-600 dark:text-stone-400 wrap-break-word">{latest.signature}</p>
                {latest.reason ? <p className="text-xs text-stone-600 dark:text-stone-400 wrap-break-word">Correção: {latest.reason}</p> : null}
                {older.map((v) => (
                  <div key={v.id} className="mt-2 border-t border-stone-200 pt-2 dark:border-stone-800">
                    <p className="text-xs font-medium">Versão anterior</p>
                    <p className="whitespace-pre-wrap text-sm wrap-break-word">{v.body}</p>
                    <p className="text-xs text-stone-600 dark:text-stone-400 wrap-break-word">{v.signature}</p>
                  </div>
                ))}
              </li>
            )
          })}
        </ol>
      )}
      <div className="flex flex-wrap gap-2 print:hidden">
        <Button onClick={() => window.print()}>Imprimir</Button>
        {back}
      </div>
    </main>
  )
}

import { useState } from 'react'
import { useParams } from 'react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api/client'
import { useLeaveWaitlist, useWaitlistEntry } from './api/waitlist'
import { Button } from '@/components/ui/button'
import { brDate } from '@/lib/format'

const partLabel = { manha: 'Manhã', tarde: 'Tarde', noite: 'Noite', qualquer: 'Qualquer horário' } as const

/** The client's waitlist link (issue 28, point 3): what they wait for, and "Sair da lista de espera". */
export function WaitlistEntryPage() {
  const { token = '' } = useParams()
  const entry = useWaitlistEntry(token)
  const leaving = useLeaveWaitlist()
  const left = leaving.isSuccess
  const busy = leaving.isPending
  const [failed, setFailed] = useState('')
  if (entry.isLoading) return <PageSpinner />
  const data = entry.data
  if (left || entry.error || !data) {
    return (
      <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
        <h1 role={left ? 'status' : undefined} className="text-2xl font-semibold">
          {left ? 'Você saiu da lista de espera' : 'Link da lista de espera inválido'}
        </h1>
        {!left ? <p className="mt-2 text-stone-600 dark:text-stone-400">{entry.error instanceof ApiError ? entry.error.message : 'Não foi possível carregar.'}</p> : null}
      </main>
    )
  }
  function leave() {
    setFailed('')
    leaving.mutate(token, { onError: (err) => setFailed(errorMessage(err, 'Não foi possível sair da lista. Tente novamente.')) })
  }
  return (
    <main className="mx-auto max-w-lg px-4 py-12">
      <h1 className="text-2xl font-bold tracking-tight">Sua lista de espera</h1>
      <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-stone-200 bg-white p-5 text-sm dark:border-stone-800 dark:bg-stone-900">
        <dt className="text-stone-600 dark:text-stone-400">Com</dt>
        <dd>{data.ownerName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
        <dd>{data.serviceName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
        <dd>{data.professionalName || 'Qualquer profissional'}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Datas</dt>
        <dd>{data.firstDate === data.lastDate ? brDate(data.firstDate) : `${brDate(data.firstDate)} a ${brDate(data.lastDate)}`}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Parte do dia</dt>
        <dd>{partLabel[data.partOfDay]}</dd>
      </dl>
      <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
        {data.status === 'booked' ? 'Você já conseguiu um horário por esta lista.' : data.status === 'expired' ? 'As datas desta lista já passaram.' : 'Se um horário vagar, avisamos por ordem de chegada.'}
      </p>
      {failed ? (
        <p role="alert" className="mt-4 text-sm text-red-800 dark:text-red-300">
          {failed}
        </p>
      ) : null}
      {data.status === 'waiting' ? (
        <Button variant="destructive" size="lg" className="mt-6 w-full" onClick={leave} disabled={busy}>
          {busy ? 'Saindo...' : 'Sair da lista de espera'}
        </Button>
      ) : null}
    </main>
  )
}

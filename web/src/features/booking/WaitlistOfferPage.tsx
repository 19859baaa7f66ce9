import { useState } from 'react'
import { useParams } from 'react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api/client'
import { useClaimOffer, useWaitlistOffer } from './api/waitlist'
import { Button } from '@/components/ui/button'
import { formatInstant } from '@/lib/dates'
import { longDate, priceText } from '@/lib/format'

/**
 * The claim link of a waitlist offer (issue 28, point 3): the time offered
 * and "Quero este horário", which books it through the same path as every
 * booking. The first claim wins; a later one is told the time is gone and
 * the client stays on the list.
 */
export function WaitlistOfferPage() {
  const { token = '' } = useParams()
  const offer = useWaitlistOffer(token)
  const claiming = useClaimOffer()
  const booked = claiming.data
  const busy = claiming.isPending
  const [refused, setRefused] = useState('')
  if (offer.isLoading) return <PageSpinner />
  const data = offer.data
  if (offer.error || !data) {
    return (
      <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
        <h1 className="text-2xl font-semibold">Link de oferta inválido</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">{offer.error instanceof ApiError ? offer.error.message : 'Não foi possível carregar a oferta.'}</p>
      </main>
    )
  }
  function claim() {
    setRefused('')
    claiming.mutate(token, { onError: (err) => setRefused(errorMessage(err, 'Não foi possível confirmar o horário. Tente novamente.')) })
  }
  const closed = data.status !== 'open'
  return (
    <main className="mx-auto max-w-lg px-4 py-12">
      <h1 className="text-2xl font-bold tracking-tight">Vagou um horário</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">Da sua lista de espera com {data.ownerName}.</p>
      <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-stone-200 bg-white p-5 text-sm dark:border-stone-800 dark:bg-stone-900">
        <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
        <dd>{data.professionalName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
        <dd>{data.serviceName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Data</dt>
        <dd>{longDate(data.date)}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Horário</dt>
        <dd>{data.time}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Duração</dt>
        <dd>{data.duration} minutos</dd>
        <dt className="text-stone-600 dark:text-stone-400">Valor</dt>
        <dd>{priceText(data.priceCents)}</dd>
      </dl>
      {booked ? (
        <p role="status" className="mt-6 flex items-center gap-2 font-medium text-green-800 dark:text-green-300">
          Horário confirmado! Enviamos os detalhes por e-mail.
        </p>
      ) : refused ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
          {refused}
        </p>
      ) : closed ? (
        <p role="status" className="mt-6 text-sm text-stone-700 dark:text-stone-300">
          {data.status === 'claimed'
            ? 'Você já confirmou este horário.'
            : data.status === 'expired'
              ? 'O prazo deste link terminou. Você continua na lista de espera.'
              : 'Esse horário já foi preenchido. Você continua na lista de espera.'}
        </p>
      ) : (
        <>
          <p className="mt-6 text-sm text-stone-600 dark:text-stone-400">Confirme até {formatInstant(data.expiresAt, undefined, true)}. O horário fica com quem confirmar primeiro.</p>
          <Button size="lg" className="mt-3 w-full" onClick={claim} disabled={busy}>
            {busy ? 'Confirmando...' : 'Quero este horário'}
          </Button>
        </>
      )}
    </main>
  )
}

import { useLocation, useParams, useSearchParams } from 'react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { usePractice } from './api/waitlist'
import WaitlistForm from './WaitlistForm'

/** The waitlist form of a practice's page (issue 28, point 3), for the service and professional chosen on the booking form. */
export function WaitlistPage() {
  const { username = '' } = useParams()
  const [search] = useSearchParams()
  // What the client typed on the booking form, brought along in the history state (never the address).
  const typed = (useLocation().state ?? undefined) as { name?: string; email?: string; phone?: string } | undefined
  const profile = usePractice(username)
  if (profile.isLoading) return <PageSpinner />
  const p = profile.data
  const service = p?.services.find((s) => s.id === search.get('service'))
  const proId = search.get('professional') ?? ''
  const professional = proId === 'any' ? { id: 'any', name: 'Qualquer profissional' } : p?.professionals.find((x) => x.id === proId)
  return (
    <main className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      {p ? <h1 className="text-xl font-bold tracking-tight">{p.name}</h1> : null}
      <h2 className="mt-6 text-lg font-semibold">Entrar na lista de espera</h2>
      {!p || !service || !professional ? (
        <p role="alert" className="mt-2 text-sm text-stone-700 dark:text-stone-300">
          Não foi possível carregar o serviço escolhido. Volte à página de agendamento e escolha novamente.
        </p>
      ) : (
        <>
          <p className="mt-1 mb-4 text-sm text-stone-600 dark:text-stone-400">
            {service.name} · {professional.name}. Se um horário vagar nas datas escolhidas, avisamos por ordem de chegada; o horário fica com quem confirmar primeiro.
          </p>
          <div className="rounded-2xl border border-stone-200 bg-white p-4 sm:p-5 dark:border-stone-800 dark:bg-stone-900">
            <WaitlistForm
              username={p.username}
              serviceId={service.id}
              professionalId={professional.id}
              firstDate={search.get('date') ?? ''}
              today={p.firstBookableDate || new Date().toLocaleDateString('en-CA')}
              lastDate={p.lastBookableDate || undefined}
              typed={typed}
            />
          </div>
        </>
      )}
    </main>
  )
}

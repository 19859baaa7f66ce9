import { useId } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'
import { useOwnerFreeTimes } from './api/get-free-times'

/**
 * The professional's free times of the chosen date, as buttons: a tap
 * chooses one. Computed by the server with the public page's engine; the
 * owner may still type another time (outside the hours it asks "Agendar
 * mesmo assim"; over another appointment the server refuses it).
 */
export function FreeTimes(props: { professionalId: string; serviceId: string; date: string; appointment?: string; value: string; onPick: (time: string) => void }) {
  const label = useId()
  const ready = props.professionalId !== '' && props.date !== '' && (props.serviceId !== '' || props.appointment !== undefined)
  const times = useOwnerFreeTimes(
    {
      professional: props.professionalId,
      date: props.date,
      ...(props.serviceId ? { service: props.serviceId } : {}),
      ...(props.appointment ? { appointment: props.appointment } : {}),
    },
    { enabled: ready },
  )
  if (!ready) {
    return <p className="text-sm text-stone-600 dark:text-stone-400">Escolha profissional, serviço e data para ver os horários livres.</p>
  }
  if (times.isLoading) return <Spinner />
  if (times.isError) return <p className="text-sm text-red-700 dark:text-red-300">Não foi possível carregar os horários livres. Digite o horário abaixo.</p>
  const list = times.data?.times ?? []
  return (
    <div className="grid gap-1">
      <p id={label} className="text-sm font-medium">
        Horários livres
      </p>
      {list.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum horário livre nesta data.</p>
      ) : (
        <div role="group" aria-labelledby={label} className="flex max-h-40 flex-wrap gap-1.5 overflow-y-auto">
          {list.map((t) => (
            <button
              key={t}
              type="button"
              aria-pressed={props.value === t}
              onClick={() => props.onPick(t)}
              className={cn(
                'min-h-9 rounded-md border px-2.5 text-sm font-medium tabular-nums',
                props.value === t
                  ? 'border-brand-700 bg-brand-700 text-white'
                  : 'border-stone-300 hover:border-brand-500 hover:bg-brand-50 dark:border-stone-700 dark:hover:bg-brand-900/30',
              )}
            >
              {t}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}

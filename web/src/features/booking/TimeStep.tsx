import type { ReactNode } from 'react'
import { Section } from './BookingSection'
import type { BookingSteps } from './use-booking'

/**
 * Step 5: the time, among the free times of the date; shown once there is
 * a date to read them for. A full day says so and offers `waitlist`.
 */
export function TimeStep({ steps, waitlist }: { steps: BookingSteps; waitlist?: ReactNode }) {
  const { times } = steps
  if (!steps.ready || !steps.date) return null
  return (
    <Section n={5} title="Escolha o horário">
      {times.isLoading ? (
        <p className="text-sm text-stone-600">Carregando horários...</p>
      ) : steps.isFull(steps.date) && (times.data?.times.length ?? 0) === 0 ? (
        <div className="text-sm">
          <p className="font-medium">Dia lotado</p>
          <p className="mt-1 text-stone-600 dark:text-stone-400">Todos os horários desta data estão ocupados.</p>
          {waitlist}
        </div>
      ) : (times.data?.times.length ?? 0) === 0 ? (
        <div className="text-sm">
          <p className="font-medium">Nenhum horário disponível para este profissional</p>
          <p className="mt-1 text-stone-600 dark:text-stone-400">
            Não há um intervalo livre de {steps.service?.duration} minutos nesta data. Que tal escolher outra data?
          </p>
        </div>
      ) : (
        <>
          <label htmlFor="time" className="sr-only">
            Horário
          </label>
          <select id="time" value={steps.time} onChange={(e) => steps.pick({ time: e.target.value })} className="h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900">
            <option value="">Selecione um horário</option>
            {times.data!.times.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </>
      )}
    </Section>
  )
}

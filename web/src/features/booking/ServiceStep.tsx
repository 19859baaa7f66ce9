import type { Schemas } from '@/lib/api/client'
import { priceText } from '@/lib/format'
import { cn } from '@/lib/utils'
import { Section } from './BookingSection'
import { anyone, type BookingSteps } from './use-booking'

/** Step 2: the service, among the practice's. */
export function ServiceStep({ services, steps }: { services: Schemas['PublicProfile']['services']; steps: BookingSteps }) {
  return (
    <Section n={2} title="Escolha o serviço">
      {services.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum serviço disponível</p>
      ) : (
        <div className="grid gap-2" role="radiogroup" aria-label="Serviço">
          {services.map((s) => (
            <label key={s.id} className={cn('flex cursor-pointer items-start justify-between gap-3 rounded-xl border p-3', s.id === steps.service?.id ? 'border-brand-600 bg-brand-50 dark:bg-brand-900/30' : 'border-stone-200 dark:border-stone-800')}>
              <span className="flex items-start gap-3">
                <input type="radio" name="service" className="mt-1 accent-brand-700" checked={s.id === steps.service?.id} onChange={() => steps.pick({ service: s.id, date: '', time: '' })} />
                <span>
                  <span className="block font-medium">{s.name}</span>
                  <span className="block text-sm text-stone-600 dark:text-stone-400">{s.duration} minutos</span>
                  {s.description ? <span className="block text-sm text-stone-500 dark:text-stone-400">{s.description}</span> : null}
                  {s.deposit ? <span className="block text-sm font-medium">{s.deposit.text}</span> : null}
                </span>
              </span>
              <span className={s.priceCents == null ? 'max-w-32 text-right text-sm text-stone-600 dark:text-stone-400' : 'font-semibold text-brand-700 dark:text-brand-200'}>{priceText(s.priceCents)}</span>
            </label>
          ))}
        </div>
      )}
    </Section>
  )
}

/** Step 3: the professional, among those who offer the service (or anyone of them); absent when there is none. */
export function ProfessionalStep({ steps, onPick }: { steps: BookingSteps; onPick: () => void }) {
  const { professionals } = steps
  if (professionals.length === 0) return null
  return (
    <Section n={3} title="Escolha o profissional">
      <label htmlFor="professional" className="sr-only">
        Profissional
      </label>
      <select
        id="professional"
        value={steps.professionalId}
        onChange={(e) => {
          steps.pick({ professional: e.target.value, time: '' })
          onPick()
        }}
        className="h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
      >
        <option value="">Selecione um profissional</option>
        {professionals.length > 1 ? <option value={anyone.id}>{anyone.name}</option> : null}
        {professionals.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} · {p.headline}
          </option>
        ))}
      </select>
    </Section>
  )
}

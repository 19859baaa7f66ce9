import { AlertTriangle } from 'lucide-react'
import type { UseFormReturn } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import type { Schemas } from '@/lib/api/client'
import { brDate, priceText } from '@/lib/format'
import { cpfReason } from '@/lib/cpf'
import { serverError } from '@/lib/form'
import type { ClientFields } from './booking-form'
import { Section } from './BookingSection'
import type { BookingSteps } from './use-booking'

type ClientForm = UseFormReturn<ClientFields, unknown, unknown>

/** Step 1: who books — the contact the variant requires, notes, and what the practice receives. */
export function DetailsStep({ form, variant, profile }: { form: ClientForm; variant: 'form' | 'booking'; profile: Schemas['PublicProfile'] }) {
  const errors = form.formState.errors
  return (
    <Section n={1} title="Seus dados">
      <div className="grid gap-3">
        <Field id="client-name" label="Nome completo *" error={errors.name?.message}>
          <Input id="client-name" autoComplete="name" {...form.register('name')} />
        </Field>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="client-email" label={variant === 'booking' ? 'E-mail *' : 'E-mail'} error={errors.email?.message}>
            <Input id="client-email" type="email" autoComplete="email" {...form.register('email')} />
          </Field>
          <Field id="client-phone" label={variant === 'form' ? 'Telefone *' : 'Telefone'} error={errors.phone?.message}>
            <Input id="client-phone" type="tel" autoComplete="tel" placeholder="(11) 99999-9999" {...form.register('phone')} />
          </Field>
        </div>
        {profile.askPayerCpf ? (
          <Field id="client-cpf" label="CPF de quem paga" hint={cpfReason} error={errors.cpf?.message}>
            <Input id="client-cpf" inputMode="numeric" autoComplete="off" placeholder="000.000.000-00" {...form.register('cpf')} />
          </Field>
        ) : null}
        <Field
          id="client-notes"
          label="Observações"
          hint={healthArea(profile.area) ? 'Opcional. Suas observações ficam só com quem vai atender você e nunca são compartilhadas.' : undefined}
          error={errors.notes?.message}
        >
          <Textarea id="client-notes" {...form.register('notes')} />
        </Field>
        <p className="text-xs text-stone-600 dark:text-stone-400">
          {profile.name} recebe seu nome, telefone e e-mail para confirmar, lembrar e, se preciso, remarcar este agendamento.{' '}
          <a href="/policy" className="font-medium text-brand-700 underline dark:text-brand-200">
            Política de Privacidade
          </a>
        </p>
      </div>
    </Section>
  )
}

/** The end of the form: a refused time, the summary of the picks, the server's error and the submit button. */
export function ConfirmStep({ steps, form, conflict, busy, disabled }: { steps: BookingSteps; form: ClientForm; conflict: string | null; busy: boolean; disabled: boolean }) {
  const { service, professional, date, time } = steps
  return (
    <>
      {conflict ? (
        <div role="alert" className="flex gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-900/30 dark:text-red-100">
          <AlertTriangle className="size-5 shrink-0" aria-hidden />
          <div>
            <p className="font-semibold">Horário não disponível</p>
            <p>{conflict}</p>
          </div>
        </div>
      ) : null}

      {service && professional && date && time ? (
        <section aria-label="Resumo" className="rounded-2xl border border-brand-200 bg-brand-50 p-4 text-sm dark:border-brand-800 dark:bg-brand-900/30">
          <h2 className="mb-2 font-semibold">Resumo</h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
            <dd>
              {professional.name}
              {professional.headline ? <span className="block text-stone-600 dark:text-stone-400">{professional.headline}</span> : null}
            </dd>
            <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
            <dd>{service.name}</dd>
            <dt className="text-stone-600 dark:text-stone-400">Data</dt>
            <dd>{brDate(date)}</dd>
            <dt className="text-stone-600 dark:text-stone-400">Horário</dt>
            <dd>{time}</dd>
            <dt className="text-stone-600 dark:text-stone-400">Duração</dt>
            <dd>{service.duration} minutos</dd>
            <dt className="text-stone-600 dark:text-stone-400">Valor</dt>
            <dd>{priceText(service.priceCents)}</dd>
          </dl>
        </section>
      ) : null}

      <FormError message={serverError(form)} />
      <Button type="submit" size="lg" disabled={disabled}>
        {busy ? 'Agendando...' : 'Confirmar agendamento'}
      </Button>
    </>
  )
}

/**
 * Health practices (psicologia, nutrição, fisioterapia and the like) collect
 * health data in the notes (LGPD art. 11): the form says they are optional
 * and never shared.
 */
export function healthArea(area: string): boolean {
  return /psic|nutri|fisio|terap|fono|odont|dent|m[eé]dic|sa[uú]de|enferm|cl[ií]nic|pediat|psiq|acupunt|quiro|osteo/i.test(area)
}

import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { useJoinWaitlist } from './api/waitlist'
import { Button } from '@/components/ui/button'
import { Field, FormError } from '@/components/ui/field'
import { addDays } from '@/lib/dates'
import { brDate } from '@/lib/format'
import { optionalText, requiredText, serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'

type Part = Schemas['WaitlistJoin']['partOfDay']

const parts: { value: Part; label: string }[] = [
  { value: 'qualquer', label: 'Qualquer horário' },
  { value: 'manha', label: 'Manhã (até 12h)' },
  { value: 'tarde', label: 'Tarde (12h às 18h)' },
  { value: 'noite', label: 'Noite (a partir das 18h)' },
]

/** What the client types on the waitlist form. */
type WaitlistFields = { name: string; email: string; phone: string; first: string; last: string; part: string }
type WaitlistBody = Omit<Schemas['WaitlistJoin'], 'serviceId' | 'professionalId'>

/**
 * A name, a phone or an e-mail (either; the server checks them with the
 * booking's own rule, booking.ValidateContact, and its pt-BR errors are
 * shown in the form), a first date and a last one up to 14 days on (none:
 * the first), and a part of the day.
 */
const waitlistSchema: FormSchema<WaitlistFields, WaitlistBody> = z.pipe(
  z
    .object({
      name: requiredText('Informe seu nome completo.'),
      email: optionalText(),
      phone: optionalText(),
      first: requiredText('Escolha a data.'),
      last: optionalText(),
      part: z.string(),
    })
    .check(
      z.refine((v) => v.email !== '' || v.phone !== '', { message: 'Informe um telefone ou e-mail para contato.', path: ['email'] }),
      z.refine((v) => v.first === '' || v.last === '' || (v.last >= v.first && v.last <= addDays(v.first, 13)), {
        message: 'Escolha uma data final até 14 dias depois da primeira.',
        path: ['last'],
      }),
    ),
  z.transform((v) => ({ clientName: v.name, clientEmail: v.email, clientPhone: v.phone, firstDate: v.first, lastDate: v.last || v.first, partOfDay: v.part as Part })),
)

/**
 * "Entrar na lista de espera" (issue 28, point 3): the client's name and a
 * phone and/or e-mail, one date or a range of up to 14, and a part of the
 * day, on the schema form the booking page and the owner's forms use
 * (lib/form.ts).
 */
export default function WaitlistForm(props: {
  username: string
  serviceId: string
  professionalId: string
  firstDate: string
  today: string
  lastDate?: string
  /** What the client already typed on the booking form. */
  typed?: { name?: string; email?: string; phone?: string }
}) {
  const start = props.firstDate || props.today
  const form = useSchemaForm(waitlistSchema, {
    name: props.typed?.name ?? '',
    email: props.typed?.email ?? '',
    phone: props.typed?.phone ?? '',
    first: start,
    last: start,
    part: 'qualquer',
  })
  const errors = form.formState.errors
  const first = form.watch('first')
  const part = form.watch('part')
  const join = useJoinWaitlist()
  const busy = join.isPending
  const joined = join.data

  const submit = form.handleSubmit((values) => {
    const body = { serviceId: props.serviceId, professionalId: props.professionalId, ...values }
    join.mutate({ username: props.username, body }, { onError: (err) => void showServerError(form, err, 'Não foi possível entrar na lista de espera. Tente novamente.') })
  })

  if (joined) {
    const when = joined.firstDate === joined.lastDate ? brDate(joined.firstDate) : `${brDate(joined.firstDate)} a ${brDate(joined.lastDate)}`
    return (
      <div role="status" className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm dark:border-brand-800 dark:bg-brand-900/30">
        <p className="font-semibold">Você está na lista de espera</p>
        <p className="mt-1">
          {joined.serviceName}, {when}. Se um horário vagar, {noticeText(joined.notice, joined.ownerName, form.watch('phone').trim() !== '')}, por ordem de chegada.
        </p>
        <a className="mt-2 inline-block font-medium text-brand-700 underline dark:text-brand-200" href={`/lista-de-espera/${joined.token}`}>
          Ver ou sair da lista de espera
        </a>
      </div>
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Lista de espera" className="grid gap-3">
      <Field id="wl-name" label="Nome completo *" error={errors.name?.message}>
        <input id="wl-name" className={box} autoComplete="name" {...form.register('name')} />
      </Field>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Telefone ou e-mail *</legend>
        <p className="text-xs text-stone-500 dark:text-stone-400">Informe pelo menos um: é por ele que você fica sabendo quando um horário vagar.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="wl-email" label="E-mail" error={errors.email?.message}>
            <input id="wl-email" className={box} type="email" autoComplete="email" {...form.register('email')} />
          </Field>
          <Field id="wl-phone" label="Telefone" error={errors.phone?.message}>
            <input id="wl-phone" className={box} type="tel" autoComplete="tel" placeholder="(11) 99999-9999" {...form.register('phone')} />
          </Field>
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="wl-first" label="A partir de *" error={errors.first?.message}>
          <input id="wl-first" className={box} type="date" min={props.today} max={props.lastDate} {...form.register('first')} />
        </Field>
        <Field id="wl-last" label="Até" hint="Até 14 dias seguidos." error={errors.last?.message}>
          <input id="wl-last" className={box} type="date" min={first} max={first ? addDays(first, 13) : undefined} {...form.register('last')} />
        </Field>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Parte do dia</legend>
        <div className="grid grid-cols-2 gap-2">
          {parts.map((p) => (
            <label key={p.value} className="flex min-h-11 items-center gap-2 rounded-lg border border-stone-300 px-3 text-sm dark:border-stone-700">
              <input type="radio" name="wl-part" value={p.value} checked={part === p.value} onChange={() => form.setValue('part', p.value)} />
              {p.label}
            </label>
          ))}
        </div>
      </fieldset>
      <FormError message={serverError(form)} />
      <Button type="submit" size="lg" className="mt-3 w-full" disabled={busy}>
        {busy ? 'Enviando...' : 'Entrar na lista de espera'}
      </Button>
    </form>
  )
}

/** How a freed time reaches the client, as the server will send it. */
function noticeText(notice: Schemas['WaitlistJoined']['notice'], ownerName: string, gavePhone: boolean): string {
  if (notice === 'whatsapp') return 'avisamos você por WhatsApp'
  if (notice === 'email') return 'avisamos você por e-mail'
  if (notice === 'push') return 'avisamos você por notificação no celular'
  return `${ownerName} entra em contato pelo ${gavePhone ? 'telefone' : 'e-mail'} informado`
}

const box = 'h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900'

import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Skeleton } from '@/components/ui/skeleton'
import { Textarea } from '@/components/ui/textarea'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'
import { Link } from 'react-router'
import { brDate } from '@/lib/format'
import { useReminderReach, type ReminderReach } from '@/lib/api/endpoints/get-reminder-reach'
import { useReminders, useSaveReminders, type Reminders } from './api/reminders'

/** The leads an owner picks from, in minutes before the appointment. */
const leadOptions = [30, 60, 120, 180, 360, 720, 1440, 2880, 4320]

/** A lead in pt-BR: '2 horas antes', '1 dia antes'. */
export function leadLabel(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 dia antes' : `${minutes / 1440} dias antes`
  if (minutes % 60 === 0) return minutes === 60 ? '1 hora antes' : `${minutes / 60} horas antes`
  return `${minutes} minutos antes`
}

type Fields = { count: string; first: string; second: string; email: string }

const schema: FormSchema<Fields, Reminders> = z.pipe(
  z
    .object({
      count: z.enum(['0', '1', '2']),
      first: z.string(),
      second: z.string(),
      email: z.string().check(z.trim(), z.minLength(1, 'Escreva o texto do e-mail de lembrete.'), z.maxLength(1000, 'No máximo 1000 caracteres.')),
    })
    .check(z.refine((f) => f.count !== '2' || f.first !== f.second, { message: 'Os dois lembretes precisam de antecedências diferentes.', path: ['second'] })),
  z.transform((f) => ({ leads: [f.first, f.second].slice(0, Number(f.count)).map(Number), email: f.email })),
)

/**
 * 'Lembretes automáticos' (issue 28): 0, 1 or 2 reminders per appointment,
 * each a lead before it, and the e-mail's text; each reminder carries the
 * client's one-tap answers. Saving re-plans the reminders already queued.
 */
export function RemindersCard() {
  const { data } = useReminders()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Lembretes automáticos</CardTitle>
        <CardDescription>
          Cada lembrete leva três botões para o cliente responder com um toque: Confirmar presença, Preciso remarcar e Cancelar (dentro do seu prazo de cancelamento).
          Vai por e-mail; o texto do WhatsApp é o “Lembrete” das mensagens do WhatsApp abaixo. Mudanças valem também para os agendamentos já marcados.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {data ? <RemindersForm reminders={data} /> : <Skeleton className="h-40" />}
        <ReachSummary />
      </CardContent>
    </Card>
  )
}

/** The WhatsApp number reminders go from, in the owner's words. */
const routeLabel: Record<string, string> = { own: 'WhatsApp (seu número)', agendei: 'WhatsApp (número do Agendei)' }

/**
 * Who the reminders reach (issue 41 §5): the next 30 days' appointments by
 * the channel their reminders take, the same rule the server sends by, and
 * by name the clients no reminder reaches.
 */
export function ReachSummary() {
  const { data: reach } = useReminderReach()
  if (!reach) return <Skeleton className="h-24" />
  return (
    <section aria-labelledby="reach-title" className="grid gap-2 border-t border-stone-200 pt-4 dark:border-stone-800">
      <h3 id="reach-title" className="font-medium">
        Quem os lembretes alcançam
      </h3>
      <p className="text-sm text-stone-600 dark:text-stone-400">{reachIntro(reach)}</p>
      {reach.total > 0 ? (
        <ul className="grid gap-1 text-sm" aria-label="Lembretes por canal">
          {reach.whatsAppRoute !== '' || reach.whatsApp > 0 ? (
            <li>
              {routeLabel[reach.whatsAppRoute] ?? 'WhatsApp'}: <strong className="tabular-nums">{reach.whatsApp}</strong>
            </li>
          ) : null}
          <li>
            E-mail: <strong className="tabular-nums">{reach.email}</strong>
          </li>
          {reach.push > 0 ? (
            <li>
              Notificação no celular (além dos outros): <strong className="tabular-nums">{reach.push}</strong>
            </li>
          ) : null}
          <li>
            <strong>nenhum</strong>: <strong className="tabular-nums">{reach.none}</strong>
          </li>
        </ul>
      ) : null}
      {reach.unreached.length > 0 ? (
        <div className="grid gap-1">
          <p className="text-sm">
            Sem lembrete automático — não deixaram e-mail{reach.whatsAppRoute === '' ? ' e o WhatsApp não está conectado' : ' nem celular válido'}, nem ativaram as notificações
            no celular. Avise pelo WhatsApp com um toque no agendamento:
          </p>
          <ul className="grid gap-1 text-sm" aria-label="Clientes sem lembrete automático">
            {reach.unreached.map((g) => (
              <li key={g.appointmentId} className="flex min-w-0 gap-1">
                <span className="shrink-0 tabular-nums">
                  {brDate(g.date)} {g.time}
                </span>
                <span aria-hidden>·</span>
                <Link to={`/appointment/${g.appointmentId}`} className="min-w-0 truncate underline">
                  {g.clientName}
                </Link>
                <span aria-hidden className="hidden sm:inline">
                  ·
                </span>
                <span className="hidden min-w-0 truncate text-stone-600 sm:inline dark:text-stone-400">{g.serviceName}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}

function reachIntro(r: ReminderReach): string {
  const n = r.total === 1 ? '1 agendamento' : `${r.total} agendamentos`
  if (r.total === 0) return 'Nenhum agendamento confirmado nos próximos 30 dias.'
  if (!r.on) return `Os lembretes estão desligados. Ligados, alcançariam assim os ${n} dos próximos 30 dias:`
  return `Próximos 30 dias: ${n}, por onde cada lembrete vai.`
}

function defaults(r: Reminders): Fields {
  const [first = 1440, second = 120] = r.leads
  return { count: String(r.leads.length), first: String(first), second: String(second), email: r.email }
}

function RemindersForm({ reminders }: { reminders: Reminders }) {
  const form = useSchemaForm(schema, defaults(reminders))
  const save = useSaveReminders()
  const { errors } = form.formState
  const count = form.watch('count')
  const options = [...new Set([...leadOptions, ...reminders.leads])].sort((a, b) => b - a)
  const onSubmit = form.handleSubmit(
    (body) =>
      save.mutate(body, {
        onSuccess: (saved) => {
          form.reset(defaults(saved))
          toast.success('Lembretes salvos')
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível salvar os lembretes.') }),
      }),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  const select = 'h-10 w-full rounded-lg border border-stone-300 bg-white px-3 text-sm dark:border-stone-700 dark:bg-stone-900'
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label="Lembretes automáticos">
      <Field id="rem-count" label="Quantos lembretes por agendamento" error={errors.count?.message}>
        <select id="rem-count" className={select} {...form.register('count')}>
          <option value="0">Nenhum</option>
          <option value="1">Um</option>
          <option value="2">Dois</option>
        </select>
      </Field>
      {count !== '0' ? (
        <Field id="rem-first" label="Primeiro lembrete" error={errors.first?.message}>
          <select id="rem-first" className={select} {...form.register('first')}>
            {options.map((m) => (
              <option key={m} value={m}>
                {leadLabel(m)}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      {count === '2' ? (
        <Field id="rem-second" label="Segundo lembrete" error={errors.second?.message}>
          <select id="rem-second" className={select} {...form.register('second')}>
            {options.map((m) => (
              <option key={m} value={m}>
                {leadLabel(m)}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <Field id="rem-email" label="Texto do e-mail de lembrete" error={errors.email?.message}>
        <Textarea id="rem-email" rows={3} {...form.register('email')} />
      </Field>
      <p className="text-xs text-stone-600 dark:text-stone-400">
        Use {'{nome}'}, {'{data}'}, {'{hora}'}, {'{servico}'}, {'{profissional}'}, {'{endereco}'} e os links de resposta {'{link_confirmar}'}, {'{link_remarcar}'},{' '}
        {'{link_cancelar}'}.
      </p>
      <FormError message={serverError(form)} />
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar lembretes'}
        </Button>
      </div>
    </form>
  )
}

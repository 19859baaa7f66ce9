import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, type Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { useServices } from '@/lib/api/endpoints/get-services'
import { longDate } from '@/lib/format'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { useClientSearch } from '../clients/api/search-clients'
import { DateTimeFields } from './DateTimeFields'
import { useCreateAppointment, usePreviewAppointments, type NewAppointment } from './api/create-appointment'
import { appointmentFields, appointmentSchema } from './appointment-form'
import { noticeChannel, useWhatsAppConfirms } from './api/whatsapp-ready'
import { FreeTimes } from './FreeTimes'
import { OutsideHoursConfirm, overridable, overrideFlag, type Overridable } from './OutsideHoursConfirm'
import { formatPhone } from '@/lib/phone'

/**
 * The owner's form for a booking that came by phone or WhatsApp: an existing
 * client found by name, phone or e-mail (or a new one), professional,
 * service, date, time, notes and whether the client gets the confirmation by
 * e-mail (and WhatsApp, when the owner's number can carry it). A time outside the professional's hours needs the owner's explicit
 * yes; a taken time is refused by the server in its own words.
 */
export function NewAppointmentForm({
  at,
  onDone,
  onCancel,
}: {
  at: { date: string; time?: string; professionalId?: string }
  onDone: (created: Schemas['Appointment']) => void
  onCancel: () => void
}) {
  const form = useSchemaForm(appointmentSchema, appointmentFields(at))
  const { errors } = form.formState
  const team = useProfessionals()
  const services = useServices()
  const create = useCreateAppointment()
  const [find, setFind] = useState('')
  const [q, setQ] = useState('')
  const matches = useClientSearch(q)
  const [outside, setOutside] = useState<{ body: NewAppointment; reason: Overridable } | null>(null)
  const preview = usePreviewAppointments()
  const [taken, setTaken] = useState<{ body: NewAppointment; dates: { date: string; message: string; alternatives: string[] }[]; total: number } | null>(null)

  useEffect(() => {
    const t = setTimeout(() => setQ(find.trim()), 250)
    return () => clearTimeout(t)
  }, [find])

  const pros = (team.data ?? []).filter((p) => p.active)
  const professionalId = form.watch('professionalId')
  // The professional's services first: those linked to them, or every active one.
  const offered = (services.data ?? []).filter((s) => s.active && (s.professionalIds.length === 0 || !professionalId || s.professionalIds.includes(professionalId)))
  const email = form.watch('clientEmail')
  // The confirmation goes by e-mail, and by WhatsApp too when the owner's
  // number can carry it (connected, confirmation template approved) and the
  // client has a phone: a phone-only client can be notified then.
  const waConfirms = useWhatsAppConfirms()
  const channel = noticeChannel(email, form.watch('clientPhone'), waConfirms)

  function send(body: NewAppointment) {
    create.mutate(body, {
      onSuccess: (created) => {
        toast.success('Agendamento criado', { description: `${created.clientName} em ${longDate(created.date)} às ${created.time}.` })
        onDone(created)
      },
      onError: (e) => {
        if (e instanceof ApiError && overridable(e.code)) {
          setOutside({ body, reason: e.code })
          return
        }
        toast.error('Erro', { description: showServerError(form, e, 'Não foi possível criar o agendamento. Tente novamente.') })
      },
    })
  }

  // A series is previewed first: the owner sees the taken dates and may skip them.
  function submit(body: NewAppointment) {
    if (!body.repeat) return send(body)
    preview.mutate(body, {
      onSuccess: ({ occurrences }) => {
        const bad = occurrences.filter((o) => o.code !== '')
        if (bad.length === 0) return send(body)
        setTaken({ body, dates: bad.map((o) => ({ date: o.date, message: o.message, alternatives: o.alternatives })), total: occurrences.length })
      },
      onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível verificar as datas. Tente novamente.') }),
    })
  }

  const onSubmit = form.handleSubmit(
    (body) => submit(body),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )

  if (taken) {
    return <TakenDates taken={taken} pending={create.isPending} onBack={() => setTaken(null)} onSend={(body) => { setTaken(null); send(body) }} />
  }

  if (outside) {
    return (
      <OutsideHoursConfirm
        date={outside.body.date}
        time={outside.body.time}
        reason={outside.reason}
        action={{ verb: 'agendar', button: 'Agendar mesmo assim', pending: 'Agendando...' }}
        pending={create.isPending}
        onBack={() => setOutside(null)}
        onConfirm={() => send({ ...outside.body, [overrideFlag[outside.reason]]: true })}
      />
    )
  }


  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-4" noValidate>
      <div className="grid gap-2">
        <Field id="new-find" label="Buscar cliente" hint="Nome, telefone ou e-mail de quem já agendou; ou preencha abaixo um cliente novo.">
          <Input id="new-find" type="search" autoComplete="off" maxLength={100} value={find} onChange={(e) => setFind(e.target.value)} />
        </Field>
        {q.length >= 2 && matches.data ? (
          matches.data.clients.length > 0 ? (
            <ul aria-label="Clientes encontrados" className="grid gap-1">
              {matches.data.clients.map((c) => (
                <li key={c.identifier}>
                  <button
                    type="button"
                    className="w-full rounded-lg border border-stone-200 px-3 py-2 text-left text-sm hover:bg-stone-50 dark:border-stone-800 dark:hover:bg-stone-800"
                    onClick={() => {
                      form.setValue('clientName', c.name, { shouldValidate: form.formState.isSubmitted })
                      form.setValue('clientPhone', c.phone, { shouldValidate: form.formState.isSubmitted })
                      form.setValue('clientEmail', c.email, { shouldValidate: form.formState.isSubmitted })
                      setFind('')
                      setQ('')
                    }}
                  >
                    <span className="font-medium">{c.name}</span>
                    <span className="block text-xs text-stone-600 dark:text-stone-400">{[c.phone && formatPhone(c.phone), c.email].filter(Boolean).join(' · ')}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum cliente encontrado. Preencha os dados de um cliente novo.</p>
          )
        ) : null}
      </div>
      <Field id="new-name" label="Nome do cliente *" error={errors.clientName?.message}>
        <Input id="new-name" autoComplete="off" {...form.register('clientName')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="new-phone" label="Telefone" error={errors.clientPhone?.message}>
          <Input id="new-phone" type="tel" inputMode="tel" autoComplete="off" {...form.register('clientPhone')} />
        </Field>
        <Field id="new-email" label="E-mail" error={errors.clientEmail?.message}>
          <Input id="new-email" type="email" autoComplete="off" {...form.register('clientEmail')} />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="new-professional" label="Profissional *" error={errors.professionalId?.message}>
          <Select id="new-professional" {...form.register('professionalId')}>
            <option value="">Selecione</option>
            {pros.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="new-service" label="Serviço *" error={errors.serviceId?.message}>
          <Select id="new-service" {...form.register('serviceId')}>
            <option value="">Selecione</option>
            {offered.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.duration} min)
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <DateTimeFields
        className="grid gap-4 sm:grid-cols-2"
        date={{ id: 'new-date', label: 'Data *', error: errors.date?.message, ...form.register('date') }}
        time={{ id: 'new-time', label: 'Horário *', error: errors.time?.message, ...form.register('time') }}
      />
      <FreeTimes
        professionalId={professionalId}
        serviceId={form.watch('serviceId')}
        date={form.watch('date')}
        value={form.watch('time')}
        onPick={(t) => form.setValue('time', t, { shouldValidate: form.formState.isSubmitted })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="new-repeat" label="Repetir">
          <Select id="new-repeat" {...form.register('repeat')}>
            <option value="">Não repetir</option>
            <option value="week">Toda semana</option>
            <option value="2weeks">A cada duas semanas</option>
            <option value="month">Todo mês</option>
          </Select>
        </Field>
        {form.watch('repeat') !== '' ? (
          <Field id="new-sessions" label="Número de sessões" error={errors.sessions?.message}>
            <Input id="new-sessions" type="number" inputMode="numeric" min={2} max={52} {...form.register('sessions')} />
          </Field>
        ) : null}
      </div>
      <Field id="new-notes" label="Observações" error={errors.notes?.message}>
        <Textarea id="new-notes" {...form.register('notes')} />
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-brand-700" disabled={channel === ''} {...form.register('notifyClient')} />
        {channel !== ''
          ? `Enviar a confirmação por ${channel} ao cliente`
          : waConfirms
            ? 'Enviar a confirmação ao cliente (informe o telefone ou o e-mail)'
            : 'Enviar a confirmação por e-mail ao cliente'}
      </label>
      {offered.find((s) => s.id === form.watch('serviceId'))?.deposit.kind !== 'none' && form.watch('serviceId') && form.watch('repeat') === '' ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" role="switch" className="size-4 accent-brand-700" {...form.register('chargeDeposit')} />
          Cobrar sinal (o cliente recebe o Pix por e-mail; a confirmação vai quando o sinal for recebido)
        </label>
      ) : null}
      <FormError message={serverError(form)} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" disabled={create.isPending || preview.isPending}>
          {create.isPending ? 'Agendando...' : 'Agendar'}
        </Button>
      </DialogFooter>
    </form>
  )
}

/**
 * Some dates of a series are taken: for each, the owner skips it or moves its
 * session to a free time of its week (offered by the server); or keeps the
 * count by letting the series run past its end.
 */
function TakenDates(props: {
  taken: { body: NewAppointment; dates: { date: string; message: string; alternatives: string[] }[]; total: number }
  pending: boolean
  onBack: () => void
  onSend: (body: NewAppointment) => void
}) {
  const { body, dates, total } = props.taken
  const [choice, setChoice] = useState<Record<string, string>>({})
  const repeat = body.repeat!
  const moves = dates.filter((d) => choice[d.date]).map((d) => ({ date: d.date, to: choice[d.date].slice(0, 10), time: choice[d.date].slice(11) }))
  const skip = dates.filter((d) => !choice[d.date]).map((d) => d.date)
  return (
    <div role="alertdialog" aria-labelledby="taken-title" className="grid gap-4">
      <p id="taken-title" className="font-semibold">
        {dates.length === 1 ? '1 data da série não está livre' : `${dates.length} datas da série não estão livres`}
      </p>
      <ul className="grid gap-3 text-sm" aria-label="Datas ocupadas">
        {dates.map((d) => (
          <li key={d.date} className="grid gap-1">
            <span>
              <span className="font-medium">{longDate(d.date)}</span> — {d.message}
            </span>
            {d.alternatives.length > 0 ? (
              <Field id={`instead-${d.date}`} label={`Em vez de ${longDate(d.date)}`}>
                <Select id={`instead-${d.date}`} value={choice[d.date] ?? ''} onChange={(e) => setChoice((c) => ({ ...c, [d.date]: e.target.value }))}>
                  <option value="">Pular esta data</option>
                  {d.alternatives.map((a) => (
                    <option key={a} value={a}>
                      {longDate(a.slice(0, 10))} às {a.slice(11)}
                    </option>
                  ))}
                </Select>
              </Field>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {moves.length === 0 ? `Pular essas datas agenda as outras ${total - dates.length} sessões de uma vez.` : `Agenda ${total - skip.length} sessões, com as mudanças escolhidas.`}
      </p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={props.onBack}>
          Voltar
        </Button>
        {repeat.count && moves.length === 0 ? (
          <Button type="button" variant="outline" disabled={props.pending} onClick={() => props.onSend({ ...body, repeat: { ...repeat, extend: true } })}>
            Manter {repeat.count} sessões (estender a série)
          </Button>
        ) : null}
        <Button
          type="button"
          disabled={props.pending || (skip.length === total)}
          onClick={() => props.onSend({ ...body, repeat: { ...repeat, skip, ...(moves.length ? { moves } : {}) } })}
        >
          {moves.length === 0 ? 'Pular essas datas e agendar' : 'Agendar com as mudanças'}
        </Button>
      </DialogFooter>
    </div>
  )
}

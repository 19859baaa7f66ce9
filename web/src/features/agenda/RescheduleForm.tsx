import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Field, FormError } from '@/components/ui/field'
import { Select } from '@/components/ui/select'
import { ApiError, type Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { useServices } from '@/lib/api/endpoints/get-services'
import { longDate } from '@/lib/format'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'
import { DateTimeFields } from './DateTimeFields'
import { useRescheduleAppointment, type Move } from './api/reschedule-appointment'
import { noticeChannel, useWhatsAppConfirms } from './api/whatsapp-ready'
import { noticeText } from './ClientNotice'
import { OutsideHoursConfirm, overridable, overrideFlag, type Overridable } from './OutsideHoursConfirm'
import { FreeTimes } from './FreeTimes'

type Appointment = Schemas['Appointment']
type MoveFields = { date: string; time: string; professionalId: string; serviceId: string; notifyClient: boolean; following: boolean }

const moveSchema: FormSchema<MoveFields, Move> = z.object({
  date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Informe a nova data.')),
  time: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Informe o novo horário (HH:MM).')),
  professionalId: z.string(),
  serviceId: z.string(),
  notifyClient: z.boolean(),
  following: z.boolean(),
})

/**
 * 'Remarcar': a new date and time (and professional or service) for a
 * confirmed appointment, with the client told if the owner wants — by e-mail,
 * and by WhatsApp when the owner's number can carry the confirmation and the
 * client has a phone (so a phone-only client can be told then);
 * a time outside the hours asks for the owner's yes, as a new booking does.
 * A session of a series can take the following sessions with it (each by
 * the same number of days, all or none).
 */
export function RescheduleForm({ appointment: a, onDone, onCancel }: { appointment: Appointment; onDone: (moved: Appointment) => void; onCancel: () => void }) {
  const form = useSchemaForm(moveSchema, {
    date: a.date,
    time: a.time,
    professionalId: a.professionalId ?? '',
    serviceId: a.serviceId ?? '',
    notifyClient: a.clientEmail !== '',
    following: false,
  })
  const { errors } = form.formState
  const team = useProfessionals()
  const services = useServices()
  const move = useRescheduleAppointment()
  const [outside, setOutside] = useState<{ body: Move; reason: Overridable } | null>(null)
  const channel = noticeChannel(a.clientEmail, a.clientPhone, useWhatsAppConfirms())
  // WhatsApp's status arrives after the form: a phone-only client is then
  // told by default too, as one with an e-mail is, unless the owner chose.
  useEffect(() => {
    if (channel !== '' && !form.formState.dirtyFields.notifyClient) form.setValue('notifyClient', true)
  }, [channel, form])

  function send(body: Move) {
    move.mutate(
      { id: a.id, body },
      {
        onSuccess: (moved) => {
          const title = body.following ? 'Sessões remarcadas' : 'Agendamento remarcado'
          const told = moved.notice ? ` ${noticeText(moved.notice)}` : ''
          toast.success(title, { description: `${body.following ? 'A partir de ' : ''}${longDate(moved.date)} às ${moved.time}.${told}` })
          onDone(moved)
        },
        onError: (e) => {
          if (e instanceof ApiError && overridable(e.code)) return setOutside({ body, reason: e.code })
          toast.error('Erro', { description: showServerError(form, e, 'Não foi possível remarcar. Tente novamente.') })
        },
      },
    )
  }
  const onSubmit = form.handleSubmit(send, () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }))

  if (outside) {
    return (
      <OutsideHoursConfirm
        date={outside.body.date}
        time={outside.body.time}
        reason={outside.reason}
        action={{ verb: 'remarcar', button: 'Remarcar mesmo assim' }}
        pending={move.isPending}
        compact
        onBack={() => setOutside(null)}
        onConfirm={() => send({ ...outside.body, [overrideFlag[outside.reason]]: true })}
      />
    )
  }


  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3 rounded-lg border border-stone-200 p-3 dark:border-stone-800" noValidate aria-label="Remarcar">
      <DateTimeFields
        date={{ id: 'move-date', label: 'Nova data', error: errors.date?.message, ...form.register('date') }}
        time={{ id: 'move-time', label: 'Novo horário', error: errors.time?.message, ...form.register('time') }}
      />
      <div className="grid grid-cols-2 gap-3">
        <Field id="move-professional" label="Profissional">
          <Select id="move-professional" {...form.register('professionalId')}>
            {(team.data ?? [])
              .filter((p) => p.active || p.id === a.professionalId)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </Select>
        </Field>
        <Field id="move-service" label="Serviço">
          <Select id="move-service" {...form.register('serviceId')}>
            {(services.data ?? [])
              .filter((s) => s.active || s.id === a.serviceId)
              .map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.duration} min)
                </option>
              ))}
          </Select>
        </Field>
      </div>
      <FreeTimes
        professionalId={form.watch('professionalId')}
        serviceId={form.watch('serviceId')}
        date={form.watch('date')}
        appointment={a.id}
        value={form.watch('time')}
        onPick={(t) => form.setValue('time', t, { shouldValidate: form.formState.isSubmitted })}
      />
      {a.seriesId ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-brand-700" {...form.register('following')} />
          Mover também as sessões seguintes desta série
        </label>
      ) : null}
      {channel !== '' ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-brand-700" {...form.register('notifyClient')} />
          {channel === 'WhatsApp' ? 'Avisar o cliente por WhatsApp' : `Avisar o cliente por ${channel} (com o convite atualizado)`}
        </label>
      ) : null}
      <FormError message={serverError(form)} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onCancel}>
          Voltar
        </Button>
        <Button type="submit" size="sm" disabled={move.isPending}>
          {move.isPending ? 'Remarcando...' : 'Confirmar remarcação'}
        </Button>
      </div>
    </form>
  )
}

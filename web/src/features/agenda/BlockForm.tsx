import { useState } from 'react'
import { toast } from 'sonner'
import { ApiError, type Schemas } from '@/lib/api/client'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { useCreateDayOff } from '../hours/api/days-off'
import { DateTimeFields } from './DateTimeFields'
import { AffectedAppointments, CancellationResults, type Outcome, type PlanChoice } from './AffectedAppointments'
import { useCreateBlock, usePreviewBlock } from './api/blocks'
import { blockFields, blockSchema, type BlockOut } from './block-form'

/**
 * 'Bloquear horário': a range of a date, or the whole day, for one
 * professional or the whole practice, with an optional reason. A whole day
 * is a day off (the hours screen lists it); a range is a block, shown and
 * removed in the agenda.
 */
export function BlockForm({
  date,
  professionalId,
  start,
  onDone,
  onCancel,
}: {
  date: string
  professionalId?: string
  /** From the grid: the stretch pressed, blocked for an hour unless changed. */
  start?: string
  onDone: () => void
  onCancel: () => void
}) {
  const form = useSchemaForm(blockSchema, blockFields(date, professionalId ?? '', start))
  const { errors } = form.formState
  const team = useProfessionals()
  const block = useCreateBlock()
  const dayOff = useCreateDayOff()
  const preview = usePreviewBlock()
  const [affected, setAffected] = useState<{ out: BlockOut; list: Schemas['AffectedAppointment'][] } | null>(null)
  const wholeDay = form.watch('wholeDay')
  const busy = block.isPending || dayOff.isPending || preview.isPending

  const [results, setResults] = useState<{ list: Schemas['AffectedAppointment'][]; outcomes: Outcome[] } | null>(null)

  const handlers = {
    onSuccess: (saved: { outcomes?: Outcome[] }) => {
      toast.success('Horário bloqueado')
      // Cancellations and moves were saved with it: say how each client was told (or that nobody could be).
      if (affected && saved.outcomes?.some((o) => o.action !== 'kept')) setResults({ list: affected.list, outcomes: saved.outcomes })
      else onDone()
    },
    onError: (e: Error) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível bloquear o horário. Tente novamente.') }),
  }
  function save(v: BlockOut, plan: PlanChoice[]) {
    const then = {
      ...handlers,
      // Someone booked inside it meanwhile, or the list changed: the owner decides again with the new list.
      onError: (e: Error) => (e instanceof ApiError && (e.code === 'appointments_affected' || e.code === 'plan_changed') ? send(v) : handlers.onError(e)),
    }
    if (v.wholeDay) dayOff.mutate({ professionalId: v.professionalId, start: v.date, end: v.date, reason: v.reason, plan }, then)
    else block.mutate({ professionalId: v.professionalId, date: v.date, start: v.start, end: v.end, reason: v.reason, plan }, then)
  }
  // The confirmed appointments inside it come first: the owner decides for each before anything is saved.
  function send(v: BlockOut) {
    preview.mutate(
      { wholeDay: v.wholeDay, block: { professionalId: v.professionalId, date: v.date, start: v.wholeDay ? '00:00' : v.start, end: v.wholeDay ? '23:59' : v.end } },
      {
        onSuccess: ({ appointments }) => (appointments.length === 0 ? save(v, []) : setAffected({ out: v, list: appointments })),
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível verificar os agendamentos. Tente novamente.') }),
      },
    )
  }
  const onSubmit = form.handleSubmit(send, () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }))

  if (results) return <CancellationResults list={results.list} outcomes={results.outcomes} onDone={onDone} />
  if (affected) {
    return (
      <AffectedAppointments
        key={affected.list.map((a) => a.id).join()}
        list={affected.list}
        pending={busy}
        onBack={() => setAffected(null)}
        onSave={(plan) => save(affected.out, plan)}
      />
    )
  }

  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-4" noValidate>
      <Field id="block-professional" label="Quem fica indisponível">
        <Select id="block-professional" {...form.register('professionalId')}>
          <option value="">Toda a clínica</option>
          {(team.data ?? [])
            .filter((p) => p.active)
            .map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
        </Select>
      </Field>
      <DateTimeFields
        className="grid grid-cols-2 gap-4"
        date={{ id: 'block-date', label: 'Data *', error: errors.date?.message, ...form.register('date') }}
        between={
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-brand-700" {...form.register('wholeDay')} />
            Dia inteiro
          </label>
        }
        time={wholeDay ? undefined : { id: 'block-start', label: 'Início *', error: errors.start?.message, ...form.register('start') }}
        end={wholeDay ? undefined : { id: 'block-end', label: 'Fim *', error: errors.end?.message, ...form.register('end') }}
      />
      <Field id="block-reason" label="Motivo (opcional)" error={errors.reason?.message}>
        <Input id="block-reason" placeholder="Reunião, curso, consulta médica..." {...form.register('reason')} />
      </Field>
      <FormError message={serverError(form)} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Bloqueando...' : 'Bloquear'}
        </Button>
      </DialogFooter>
    </form>
  )
}

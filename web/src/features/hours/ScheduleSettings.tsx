import { Trash2 } from 'lucide-react'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { ApiError, errorMessage, type Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { brDate } from '@/lib/format'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { AffectedAppointments, CancellationResults } from '../agenda/AffectedAppointments'
import { previewDayOff } from '../agenda/api/blocks'
import { useCreateDayOff, useDaysOff, useDeleteDayOff } from './api/days-off'
import { useScheduleRules } from './api/get-schedule-rules'
import { useCreateHoliday, useDeleteHoliday, useHolidays, useSetHolidayOpen } from './api/holidays'
import { useSaveScheduleRules } from './api/save-schedule-rules'
import { blankDayOff, blankHoliday, dayOffSchema, holidaySchema, rulesFields, rulesSchema } from './schedule-forms'

type DayOffBody = Omit<Schemas['DayOffInput'], 'plan' | 'keep'>

const select =
  'h-10 w-full rounded-lg border border-stone-300 bg-white px-3 text-base sm:text-sm dark:border-stone-700 dark:bg-stone-900'

/** The booking rules, days off and holidays, below the weekly hours. */
export function ScheduleSettings() {
  return (
    <>
      <RulesCard />
      <DaysOffCard />
      <HolidaysCard />
    </>
  )
}

function RulesCard() {
  const { data } = useScheduleRules()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Regras de agendamento</CardTitle>
        <CardDescription>Como os clientes escolhem horários na sua página.</CardDescription>
      </CardHeader>
      <CardContent>{data ? <RulesForm rules={data} /> : <Skeleton className="h-40" />}</CardContent>
    </Card>
  )
}

const notices = [
  [0, 'Sem antecedência mínima'],
  [30, '30 minutos'],
  [60, '1 hora'],
  [120, '2 horas'],
  [240, '4 horas'],
  [720, '12 horas'],
  [1440, '1 dia'],
  [2880, '2 dias'],
] as const

function RulesForm({ rules }: { rules: Schemas['ScheduleRules'] }) {
  const form = useSchemaForm(rulesSchema, rulesFields(rules))
  const save = useSaveScheduleRules()
  const { errors } = form.formState
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () => toast.success('Regras salvas!', { description: 'Sua página de agendamento já segue as novas regras.' }),
      onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível salvar as regras.') }),
    }),
  )
  const known = notices.some(([m]) => m === rules.minNoticeMinutes)
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" noValidate>
      <Field id="slot-step" label="Intervalo entre horários" error={errors.slotStep?.message}>
        <select id="slot-step" className={select} {...form.register('slotStep')}>
          <option value="15">A cada 15 minutos</option>
          <option value="30">A cada 30 minutos</option>
          <option value="60">A cada hora</option>
          <option value="0">Pela duração do serviço</option>
        </select>
      </Field>
      <Field id="min-notice" label="Antecedência mínima" error={errors.minNoticeMinutes?.message}>
        <select id="min-notice" className={select} {...form.register('minNoticeMinutes')}>
          {known ? null : <option value={String(rules.minNoticeMinutes)}>{rules.minNoticeMinutes} minutos</option>}
          {notices.map(([m, label]) => (
            <option key={m} value={String(m)}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field id="booking-window" label="Agendamentos até quantos dias à frente" hint="De 1 a 365 dias." error={errors.bookingWindowDays?.message}>
        <Input id="booking-window" type="number" inputMode="numeric" min={1} max={365} {...form.register('bookingWindowDays')} />
      </Field>
      <Field
        id="cancel-cutoff"
        label="Cancelamento pelo cliente até (horas antes)"
        hint="0: até o horário do atendimento."
        error={errors.cancelCutoffHours?.message}
      >
        <Input id="cancel-cutoff" type="number" inputMode="numeric" min={0} max={720} {...form.register('cancelCutoffHours')} />
      </Field>
      <div className="grid gap-2 sm:col-span-2">
        <FormError message={serverError(form)} />
        <div className="flex justify-end">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Salvando...' : 'Salvar regras'}
          </Button>
        </div>
      </div>
    </form>
  )
}

function DaysOffCard() {
  const { data: daysOff } = useDaysOff()
  const { data: team } = useProfessionals()
  const remove = useDeleteDayOff()
  const create = useCreateDayOff()
  const form = useSchemaForm(dayOffSchema, blankDayOff)
  const { errors } = form.formState
  const active = (team ?? []).filter((p) => p.active)
  const preview = useMutation({ mutationFn: previewDayOff })
  // The confirmed appointments inside the dates, for the owner's plan; then what the save did to them.
  const [affected, setAffected] = useState<{ body: DayOffBody; list: Schemas['AffectedAppointment'][] } | null>(null)
  const [results, setResults] = useState<{ list: Schemas['AffectedAppointment'][]; outcomes: Schemas['AffectedOutcome'][] } | null>(null)
  function save(body: DayOffBody, plan: Schemas['AffectedChoice'][], list: Schemas['AffectedAppointment'][]) {
    create.mutate(
      { ...body, plan },
      {
        onSuccess: (saved) => {
          toast.success('Folga adicionada', { description: 'Essas datas não aparecem mais para agendamento.' })
          form.reset()
          setAffected(null)
          if (saved.outcomes?.some((o) => o.action !== 'kept')) setResults({ list, outcomes: saved.outcomes })
        },
        onError: (e) =>
          // Someone booked inside the dates meanwhile, or the list changed: the owner decides again with the new list.
          e instanceof ApiError && (e.code === 'appointments_affected' || e.code === 'plan_changed')
            ? check(body)
            : toast.error('Erro', { description: showServerError(form, e, 'Não foi possível adicionar a folga.') }),
      },
    )
  }
  // Nothing is saved before the owner decided for each affected appointment.
  function check(body: DayOffBody) {
    setResults(null)
    preview.mutate(body, {
      onSuccess: ({ appointments }) => (appointments.length === 0 ? save(body, [], []) : setAffected({ body, list: appointments })),
      onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível verificar os agendamentos. Tente novamente.') }),
    })
  }
  const onSubmit = form.handleSubmit(check)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Folgas e férias</CardTitle>
        <CardDescription>Datas em que a clínica ou um profissional não atende.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {daysOff && daysOff.length > 0 ? (
          <ul className="grid gap-2">
            {daysOff.map((d) => (
              <li key={d.id} className="flex items-center justify-between gap-3 rounded-lg border border-stone-200 px-3 py-2 text-sm dark:border-stone-800">
                <span>
                  <span className="font-medium">{d.professionalName || 'Toda a clínica'}</span> · {d.start === d.end ? brDate(d.start) : `${brDate(d.start)} a ${brDate(d.end)}`}
                  {d.reason ? <span className="text-stone-600 dark:text-stone-400"> · {d.reason}</span> : null}
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remover folga de ${brDate(d.start)}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(d.id, { onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível remover a folga.') }) })}
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-stone-600 dark:text-stone-400">Nenhuma folga marcada.</p>
        )}
        {results ? <CancellationResults list={results.list} outcomes={results.outcomes} onDone={() => setResults(null)} /> : null}
        {affected ? (
          <AffectedAppointments
            key={affected.list.map((a) => a.id).join()}
            list={affected.list}
            pending={create.isPending}
            saveLabel="Salvar folga"
            pendingLabel="Salvando..."
            onBack={() => setAffected(null)}
            onSave={(plan) => save(affected.body, plan, affected.list)}
          />
        ) : (
          <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-2" noValidate>
            <Field id="day-off-professional" label="Quem folga">
              <select id="day-off-professional" className={select} {...form.register('professionalId')}>
                <option value="">Toda a clínica</option>
                {active.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="day-off-reason" label="Motivo (opcional)" error={errors.reason?.message}>
              <Input id="day-off-reason" placeholder="Férias, congresso…" {...form.register('reason')} />
            </Field>
            <Field id="day-off-start" label="De" error={errors.start?.message}>
              <Input id="day-off-start" type="date" {...form.register('start')} />
            </Field>
            <Field id="day-off-end" label="Até (opcional)" error={errors.end?.message}>
              <Input id="day-off-end" type="date" {...form.register('end')} />
            </Field>
            <div className="grid gap-2 sm:col-span-2">
              <FormError message={serverError(form)} />
              <div className="flex justify-end">
                <Button type="submit" variant="outline" disabled={create.isPending || preview.isPending}>
                  {create.isPending || preview.isPending ? 'Salvando...' : 'Adicionar folga'}
                </Button>
              </div>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  )
}

function HolidaysCard() {
  const thisYear = new Date().getFullYear()
  const [year, setYear] = useState(thisYear)
  const { data } = useHolidays(year)
  const setOpen = useSetHolidayOpen()
  const remove = useDeleteHoliday()
  const create = useCreateHoliday()
  const form = useSchemaForm(holidaySchema, blankHoliday)
  const { errors } = form.formState
  const onSubmit = form.handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: () => {
        toast.success('Feriado adicionado', { description: 'A clínica fica fechada nesse dia, todos os anos.' })
        form.reset()
      },
      onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível adicionar o feriado.') }),
    }),
  )
  const failed = (e: Error) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível salvar o feriado.') })
  return (
    <Card>
      <CardHeader>
        <CardTitle>Feriados</CardTitle>
        <CardDescription>Os feriados nacionais ficam fechados; marque os dias em que você atende. Acrescente os feriados do seu estado ou cidade.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-center gap-2" role="group" aria-label="Ano">
          {[thisYear, thisYear + 1].map((y) => (
            <Button key={y} type="button" size="sm" variant={y === year ? 'default' : 'outline'} aria-pressed={y === year} onClick={() => setYear(y)}>
              {y}
            </Button>
          ))}
        </div>
        {data ? (
          <ul className="grid gap-1">
            {data.holidays.map((h) => (
              <li key={h.key + h.date} className="flex items-center justify-between gap-3 rounded-lg px-2 py-1.5 text-sm hover:bg-stone-50 dark:hover:bg-stone-900">
                <span>
                  <span className="tabular-nums text-stone-600 dark:text-stone-400">{brDate(h.date)}</span> · {h.name}
                </span>
                {h.national ? (
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-700"
                      checked={h.open}
                      disabled={setOpen.isPending}
                      onChange={(e) => setOpen.mutate({ key: h.key, open: e.target.checked }, { onError: failed })}
                    />
                    Atender neste dia
                  </label>
                ) : (
                  <Button type="button" variant="ghost" size="icon" aria-label={`Remover feriado ${h.name}`} onClick={() => remove.mutate(h.key, { onError: failed })}>
                    <Trash2 aria-hidden />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <Skeleton className="h-48" />
        )}
        <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[1fr_8rem_auto] sm:items-end" noValidate>
          <Field id="holiday-name" label="Feriado estadual ou municipal" error={errors.name?.message}>
            <Input id="holiday-name" placeholder="Aniversário da cidade" {...form.register('name')} />
          </Field>
          <Field id="holiday-date" label="Dia (DD/MM)" error={errors.date?.message}>
            <Input id="holiday-date" inputMode="numeric" placeholder="25/01" {...form.register('date')} />
          </Field>
          <Button type="submit" variant="outline" disabled={create.isPending}>
            {create.isPending ? 'Salvando...' : 'Adicionar feriado'}
          </Button>
          <div className="sm:col-span-3">
            <FormError message={serverError(form)} />
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

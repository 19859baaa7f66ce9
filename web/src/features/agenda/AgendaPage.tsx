import { Ban, ChevronLeft, ChevronRight, Plus } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import type { Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { longDate, monthLabel, weekdays } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useBlocks, useDeleteBlock } from './api/blocks'
import { useSchedule } from './api/get-schedule'
import { useAppointments } from './api/list-appointments'
import { AppointmentDetails } from './AppointmentDetails'
import { BlockForm } from './BlockForm'
import { NewAppointmentForm } from './NewAppointmentForm'
import { addDays, addMonths, fromMinutes, mondayOf, monthGrid, toMinutes, todayLocal, weekday } from './dates'

type Appointment = Schemas['Appointment']
type View = 'day' | 'week' | 'month'
const short = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb']

export default function AgendaPage() {
  const today = todayLocal()
  const [view, setView] = useState<View>('day')
  const [cursor, setCursor] = useState(today)
  const [search, setSearch] = useState('')
  const [q, setQ] = useState('')
  const [status, setStatus] = useState('')
  const [professional, setProfessional] = useState('')
  const [open, setOpen] = useState<Appointment | null>(null)
  const [newAt, setNewAt] = useState<{ date: string; time?: string } | null>(null)
  const [blocking, setBlocking] = useState(false)

  // Search as the owner types, without a request per keystroke.
  useEffect(() => {
    const t = setTimeout(() => setQ(search.trim()), 250)
    return () => clearTimeout(t)
  }, [search])

  const [from, to] = useMemo(() => {
    if (view === 'day') return [cursor, cursor]
    if (view === 'week') return [mondayOf(cursor), addDays(mondayOf(cursor), 6)]
    const g = monthGrid(cursor)
    return [g[0], g[g.length - 1]]
  }, [view, cursor])

  const appts = useAppointments({ from, to, ...(status ? { status } : {}), ...(professional ? { professional } : {}), ...(q ? { q } : {}) })
  const team = useProfessionals()
  const schedule = useSchedule({ from: cursor, to: cursor, ...(professional ? { professional } : {}) })
  const blocks = useBlocks(cursor, cursor)
  // The day's blocks that concern what is shown: the filtered professional's and the whole practice's.
  const dayBlocks = (blocks.data ?? []).filter((b) => !professional || b.professionalId === null || b.professionalId === professional)
  useEffect(() => {
    if (team.isError || schedule.isError) toast.error('Erro', { description: 'Erro ao carregar dados iniciais.' })
  }, [team.isError, schedule.isError])

  // Calendar views leave cancelled appointments out, unless the filter asks for them.
  const shown = (appts.data?.appointments ?? []).filter((a) => status === 'cancelled' || a.status !== 'cancelled')
  const byDate = useMemo(() => {
    const m = new Map<string, Appointment[]>()
    for (const a of shown) m.set(a.date, [...(m.get(a.date) ?? []), a])
    return m
  }, [shown])

  const move = (n: number) => setCursor((c) => (view === 'day' ? addDays(c, n) : view === 'week' ? addDays(c, 7 * n) : addMonths(c, n)))
  const title =
    view === 'day'
      ? longDate(cursor)
      : view === 'week'
        ? `Semana de ${from.slice(8)}/${from.slice(5, 7)} a ${to.slice(8)}/${to.slice(5, 7)}`
        : monthLabel(Number(cursor.slice(0, 4)), Number(cursor.slice(5, 7)))

  return (
    <div className="grid gap-4">
      <BackLink />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight">Agenda</h1>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setBlocking(true)}>
            <Ban aria-hidden /> Bloquear horário
          </Button>
          <Button onClick={() => setNewAt({ date: view === 'day' ? cursor : today })}>
            <Plus aria-hidden /> Novo agendamento
          </Button>
        </div>
      </div>
      <Card className="grid gap-3 p-4 sm:grid-cols-3">
        <div className="grid gap-1">
          <label htmlFor="agenda-search" className="text-sm font-medium">
            Buscar cliente
          </label>
          <Input id="agenda-search" placeholder="Nome ou e-mail" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <label htmlFor="agenda-status" className="text-sm font-medium">
            Status
          </label>
          <Select id="agenda-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Todos</option>
            <option value="confirmed">confirmado</option>
            <option value="cancelled">cancelado</option>
            <option value="completed">concluído</option>
            <option value="no_show">não compareceu</option>
          </Select>
        </div>
        {(team.data ?? []).some((p) => p.active) ? (
          <div className="grid gap-1">
            <label htmlFor="agenda-professional" className="text-sm font-medium">
              Profissional
            </label>
            <Select id="agenda-professional" value={professional} onChange={(e) => setProfessional(e.target.value)}>
              <option value="">Todos os profissionais</option>
              {(team.data ?? [])
                .filter((p) => p.active)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} — {p.specialization}
                  </option>
                ))}
            </Select>
          </div>
        ) : null}
      </Card>

      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label="Visualização" className="inline-flex rounded-lg border border-stone-300 p-0.5 dark:border-stone-700">
          {(['day', 'week', 'month'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={cn('rounded-md px-3 py-1.5 text-sm font-medium', view === v ? 'bg-brand-700 text-white' : 'hover:bg-stone-100 dark:hover:bg-stone-800')}
            >
              {{ day: 'Dia', week: 'Semana', month: 'Mês' }[v]}
            </button>
          ))}
        </div>
        <div className="flex items-center gap-1">
          <Button variant="outline" size="sm" onClick={() => move(-1)}>
            <ChevronLeft aria-hidden /> Anterior
          </Button>
          <Button variant="outline" size="sm" onClick={() => setCursor(today)}>
            Hoje
          </Button>
          <Button variant="outline" size="sm" onClick={() => move(1)}>
            Próximo <ChevronRight aria-hidden />
          </Button>
        </div>
      </div>
      <h2 className="text-lg font-semibold first-letter:uppercase" aria-live="polite">
        {title}
      </h2>
      {appts.isLoading || (view === 'day' && schedule.isLoading) ? (
        <div className="p-10 text-center">
          <Spinner />
        </div>
      ) : view === 'day' ? (
        <DayView appointments={byDate.get(cursor) ?? []} plan={schedule.data?.[0]} blocks={dayBlocks} onOpen={setOpen} onFree={(time) => setNewAt({ date: cursor, time })} />
      ) : view === 'week' ? (
        <WeekView from={from} byDate={byDate} today={today} onOpen={setOpen} onDay={(d) => { setCursor(d); setView('day') }} />
      ) : (
        <MonthView cursor={cursor} byDate={byDate} today={today} onOpen={setOpen} onDay={(d) => { setCursor(d); setView('day') }} />
      )}
      {appts.data?.truncated ? <p className="text-sm text-amber-700">Há agendamentos demais neste período; use os filtros para ver todos.</p> : null}

      <Dialog open={open !== null} onOpenChange={(o) => !o && setOpen(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Detalhes do agendamento</DialogTitle>
          </DialogHeader>
          {open ? <AppointmentDetails appointment={open} onChanged={setOpen} /> : null}
        </DialogContent>
      </Dialog>

      <Dialog open={blocking} onOpenChange={setBlocking}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Bloquear horário</DialogTitle>
          </DialogHeader>
          {blocking ? <BlockForm date={view === 'day' ? cursor : today} professionalId={professional} onDone={() => setBlocking(false)} onCancel={() => setBlocking(false)} /> : null}
        </DialogContent>
      </Dialog>

      <Dialog open={newAt !== null} onOpenChange={(o) => !o && setNewAt(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Novo agendamento</DialogTitle>
          </DialogHeader>
          {newAt ? (
            <NewAppointmentForm
              at={{ ...newAt, professionalId: professional || onlyProfessional(team.data) }}
              onDone={() => setNewAt(null)}
              onCancel={() => setNewAt(null)}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  )
}

/** The one active professional, when there is only one: the form starts with them. */
function onlyProfessional(team?: Schemas['Professional'][]): string | undefined {
  const active = (team ?? []).filter((p) => p.active)
  return active.length === 1 ? active[0].id : undefined
}

type Plan = Schemas['ScheduleDay']
type Block = Schemas['Block']

/** A block's row: its range, reason and who it concerns, with a way to give the time back. */
function BlockedRow({ block: b, first }: { block: Block; first: boolean }) {
  const remove = useDeleteBlock()
  if (!first) {
    return (
      <span className="flex-1 rounded-lg bg-stone-200/70 p-2 text-xs font-semibold tracking-wide text-stone-700 dark:bg-stone-800 dark:text-stone-300">BLOQUEADO (continuação)</span>
    )
  }
  return (
    <span className="flex flex-1 items-center justify-between gap-2 rounded-lg bg-stone-200/70 p-2 text-sm dark:bg-stone-800">
      <span>
        <span className="text-xs font-semibold tracking-wide text-stone-700 dark:text-stone-300">BLOQUEADO</span>
        <span className="block text-stone-700 dark:text-stone-300">
          {b.start}–{b.end}
          {b.reason ? ` · ${b.reason}` : ''} · {b.professionalName || 'Toda a clínica'}
        </span>
      </span>
      <Button
        variant="outline"
        size="sm"
        disabled={remove.isPending}
        onClick={() => {
          if (!window.confirm('Remover este bloqueio? O horário volta a ficar disponível.')) return
          remove.mutate(b.id, {
            onSuccess: () => toast.success('Bloqueio removido'),
            onError: () => toast.error('Erro', { description: 'Não foi possível remover o bloqueio. Tente novamente.' }),
          })
        }}
      >
        Remover bloqueio
      </Button>
    </span>
  )
}

/**
 * The day's rows: every 30 minutes of each working window (DISPONÍVEL or
 * OCUPADO), the gap between two windows as one 'Intervalo' row, and any
 * appointment outside the windows in its own row. A day off or holiday says
 * so ('Folga: Férias', the holiday's name) above what is booked anyway.
 */
function DayView(props: { appointments: Appointment[]; plan?: Plan; blocks: Block[]; onOpen: (a: Appointment) => void; onFree: (time: string) => void }) {
  const plan = props.plan
  const windows = plan?.windows ?? []
  if (windows.length === 0 && props.appointments.length === 0 && props.blocks.length === 0) {
    if (plan && plan.closed !== 'weekday' && plan.closed !== '') {
      return (
        <Card className="p-6 text-center">
          <p className="font-medium">{plan.label}</p>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Sem atendimento neste dia.</p>
        </Card>
      )
    }
    return (
      <Card className="p-6 text-center">
        <p className="font-medium">Nenhum horário configurado para este dia</p>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Configure seus horários de atendimento em{' '}
          <Link to="/configure-hours" className="text-brand-700 hover:underline dark:text-brand-200">
            Configurar Horários
          </Link>
          .
        </p>
      </Card>
    )
  }
  type Row = { at: number; kind: 'open' | 'break' | 'outside'; until?: number }
  const rows: Row[] = []
  windows.forEach((w, i) => {
    if (i > 0) rows.push({ at: toMinutes(windows[i - 1].end), kind: 'break', until: toMinutes(w.start) })
    for (let m = toMinutes(w.start); m < toMinutes(w.end); m += 30) rows.push({ at: m, kind: 'open' })
  })
  const covered = (a: Appointment) => rows.some((r) => r.kind === 'open' && toMinutes(a.time) < r.at + 30 && r.at < toMinutes(a.time) + a.duration)
  for (const a of props.appointments) if (!covered(a)) rows.push({ at: toMinutes(a.time), kind: 'outside' })
  const blockOf = (at: number) => props.blocks.find((b) => toMinutes(b.start) < at + 30 && at < toMinutes(b.end))
  // A block outside the working windows gets its own row, as an appointment does.
  for (const b of props.blocks) {
    if (!rows.some((r) => r.kind === 'open' && blockOf(r.at) === b) && !rows.some((r) => r.at === toMinutes(b.start))) rows.push({ at: toMinutes(b.start), kind: 'outside' })
  }
  rows.sort((x, y) => x.at - y.at)
  return (
    <div className="grid gap-3">
      {plan && plan.closed !== '' && plan.closed !== 'weekday' ? (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-medium dark:border-amber-700 dark:bg-amber-900/30">
          {plan.label}
        </p>
      ) : null}
      <Card className="divide-y divide-stone-100 dark:divide-stone-800">
        {rows.map((r) => {
          if (r.kind === 'break') {
            return (
              <div key={`break-${r.at}`} className="flex items-stretch gap-3 p-2" data-testid="agenda-row">
                <span className="w-14 shrink-0 pt-2 text-sm font-medium text-stone-600 dark:text-stone-400">{fromMinutes(r.at)}</span>
                <span className="flex-1 rounded-lg bg-stone-100 p-2 text-xs font-semibold tracking-wide text-stone-600 dark:bg-stone-800 dark:text-stone-300">
                  Intervalo · até {fromMinutes(r.until ?? r.at)}
                </span>
              </div>
            )
          }
          // An appointment occupies every 30-minute row it covers.
          const a =
            r.kind === 'outside'
              ? props.appointments.find((x) => toMinutes(x.time) === r.at && !covered(x))
              : props.appointments.find((x) => toMinutes(x.time) < r.at + 30 && r.at < toMinutes(x.time) + x.duration)
          const first = a && toMinutes(a.time) >= r.at
          const blocked = a ? undefined : blockOf(r.at)
          return (
            <div key={`${r.kind}-${r.at}`} className="flex items-stretch gap-3 p-2" data-testid="agenda-row">
              <span className="w-14 shrink-0 pt-2 text-sm font-medium text-stone-600 dark:text-stone-400">{fromMinutes(r.at)}</span>
              {a ? (
                <button type="button" onClick={() => props.onOpen(a)} className="flex-1 rounded-lg bg-brand-50 p-2 text-left text-sm hover:bg-brand-100 dark:bg-brand-900/30 dark:hover:bg-brand-900/50">
                  <span className="text-xs font-semibold tracking-wide text-brand-800 dark:text-brand-200">OCUPADO</span>
                  {first ? (
                    <span className="block">
                      <span className="font-medium">{a.clientName}</span>
                      {a.seriesId ? <span className="ml-1 text-xs font-semibold text-brand-800 dark:text-brand-200">↻ Recorrente</span> : null} · {a.serviceName} · {a.duration} min
                      {a.clientPhone ? ` · ${a.clientPhone}` : ''} · {a.professionalName}
                    </span>
                  ) : (
                    <span className="block text-stone-600 dark:text-stone-400">{a.clientName} (continuação)</span>
                  )}
                </button>
              ) : blocked ? (
                <BlockedRow block={blocked} first={toMinutes(blocked.start) >= r.at} />
              ) : (
                <button
                  type="button"
                  onClick={() => props.onFree(fromMinutes(r.at))}
                  aria-label={`DISPONÍVEL ${fromMinutes(r.at)}`}
                  className="flex-1 rounded-lg border border-dashed border-stone-200 p-2 text-left text-xs font-semibold tracking-wide text-stone-500 hover:border-brand-400 hover:bg-brand-50 dark:border-stone-800 dark:text-stone-400 dark:hover:bg-brand-900/20"
                >
                  DISPONÍVEL
                </button>
              )}
            </div>
          )
        })}
      </Card>
    </div>
  )
}

function Chip({ a, onOpen }: { a: Appointment; onOpen: (a: Appointment) => void }) {
  return (
    <button type="button" onClick={() => onOpen(a)} className="block w-full truncate rounded-md bg-brand-50 px-1.5 py-1 text-left text-xs hover:bg-brand-100 dark:bg-brand-900/30">
      <span className="font-medium">{a.time}</span> {a.clientName}
    </button>
  )
}

function WeekView(props: { from: string; byDate: Map<string, Appointment[]>; today: string; onOpen: (a: Appointment) => void; onDay: (d: string) => void }) {
  const days = Array.from({ length: 7 }, (_, i) => addDays(props.from, i))
  return (
    <div className="grid gap-2 sm:grid-cols-7">
      {days.map((d) => {
        const list = props.byDate.get(d) ?? []
        return (
          <Card key={d} className={cn('min-h-28 p-2', d === props.today && 'ring-2 ring-brand-500')}>
            <button type="button" onClick={() => props.onDay(d)} className="mb-1 text-sm font-semibold hover:underline">
              {short[weekday(d)]} {d.slice(8)}
            </button>
            <div className="grid gap-1">
              {list.slice(0, 3).map((a) => (
                <Chip key={a.id} a={a} onOpen={props.onOpen} />
              ))}
              {list.length > 3 ? (
                <button type="button" onClick={() => props.onDay(d)} className="text-left text-xs font-medium text-brand-700 dark:text-brand-200">
                  +{list.length - 3} mais
                </button>
              ) : null}
            </div>
          </Card>
        )
      })}
    </div>
  )
}

function MonthView(props: { cursor: string; byDate: Map<string, Appointment[]>; today: string; onOpen: (a: Appointment) => void; onDay: (d: string) => void }) {
  const grid = monthGrid(props.cursor)
  const month = props.cursor.slice(0, 7)
  return (
    <div className="overflow-x-auto">
      <div className="grid min-w-[640px] grid-cols-7 gap-1">
        {[1, 2, 3, 4, 5, 6, 0].map((d) => (
          <span key={d} className="py-1 text-center text-xs font-medium text-stone-500 dark:text-stone-400" title={weekdays[d]}>
            {short[d]}
          </span>
        ))}
        {grid.map((d) => {
          const list = props.byDate.get(d) ?? []
          const outside = d.slice(0, 7) !== month
          return (
            <div
              key={d}
              data-testid={`month-day-${d}`}
              className={cn(
                'min-h-24 rounded-lg border border-stone-200 p-1 dark:border-stone-800',
                outside && 'opacity-40',
                d === props.today && 'border-brand-600 bg-brand-50 dark:bg-brand-900/20',
              )}
            >
              <button type="button" onClick={() => props.onDay(d)} className="text-xs font-semibold hover:underline" aria-label={`Ver ${longDate(d)}`}>
                {Number(d.slice(8))}
              </button>
              <div className="mt-1 grid gap-1">
                {list.slice(0, 2).map((a) => (
                  <Chip key={a.id} a={a} onOpen={props.onOpen} />
                ))}
                {list.length > 2 ? <span className="text-xs font-medium text-brand-700 dark:text-brand-200">+{list.length - 2}</span> : null}
              </div>
            </div>
          )
        })}
      </div>
    </div>
  )
}

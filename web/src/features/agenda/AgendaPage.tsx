import { Ban, ChevronLeft, ChevronRight, ListFilter, Plus } from 'lucide-react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useAddressState } from '@/lib/address-state'
import { useIsProfessional } from '@/lib/auth'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, type Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { addDays, addMonths, todayLocal } from '@/lib/dates'
import { longDate, monthLabel, weekdays } from '@/lib/format'
import { useMediaQuery, wideQuery } from '@/lib/media'
import { cn } from '@/lib/utils'
import { useAgendaGrid, type AgendaGrid } from './api/get-agenda-grid'
import { useAppointments } from './api/list-appointments'
import { AppointmentDetails } from './AppointmentDetails'
import { BlockForm } from './BlockForm'
import { NewAppointmentForm } from './NewAppointmentForm'
import { useRescheduleAppointment } from './api/reschedule-appointment'
import { useTellMoved } from './api/tell-moved'
import { announceMove } from './move-toast'
import { mondayOf, monthGrid, weekSpan } from './calendar'
import { gridColumns, shortWeekdays as short, weekProfessionals, type View } from './columns'
import { TimeGrid, type Column, type GridAppointment } from './TimeGrid'
import { WaitlistPanel } from './WaitlistPanel'
import { overridable, overrideFlag } from './OutsideHoursConfirm'

type Appointment = Schemas['Appointment']

/** The agenda's state lives in the address: view, date, professional, search and status (reload, back and a shared link show the same agenda). */
function useAgendaState(today: string) {
  const [params, setParams] = useAddressState()
  const view: View = params.get('v') === 'week' || params.get('v') === 'month' ? (params.get('v') as View) : 'day'
  const cursor = /^\d{4}-\d{2}-\d{2}$/.test(params.get('d') ?? '') ? params.get('d')! : today
  const set = (next: Partial<Record<'v' | 'd' | 'p' | 'q' | 's', string>>, replace = false) => setParams(next, replace)
  return { view, cursor, professional: params.get('p') ?? '', q: params.get('q') ?? '', status: params.get('s') ?? '', set }
}

export default function AgendaPage() {
  const today = todayLocal()
  const { view, cursor, professional, q, status, set } = useAgendaState(today)
  const teamMember = useIsProfessional()
  const [search, setSearch] = useState(q)
  const [open, setOpen] = useState<Appointment | null>(null)
  const [newAt, setNewAt] = useState<{ date: string; time?: string; professionalId?: string } | null>(null)
  const [blocking, setBlocking] = useState<{ date: string; professionalId?: string; start?: string } | null>(null)
  const move = useRescheduleAppointment()
  const tell = useTellMoved()

  // Search as the owner types, without a request per keystroke; the address keeps it.
  useEffect(() => {
    const t = setTimeout(() => {
      if (search.trim() !== q) set({ q: search.trim() }, true)
    }, 250)
    return () => clearTimeout(t)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search])

  const team = useProfessionals()
  const active = (team.data ?? []).filter((p) => p.active)
  // A phone shows the filters in a sheet behind one button, so the grid is the first thing on screen; a wider screen, inline.
  const wide = useMediaQuery(wideQuery, true)
  const [filtersOpen, setFiltersOpen] = useState(false)
  const filterCount = [q, status, professional].filter(Boolean).length
  // The phone's week of everyone: one professional at a time, the tab chosen (else the first).
  const [tab, setTab] = useState<string>()
  const [from, to] = useMemo(() => {
    if (view === 'day') return [cursor, cursor]
    if (view === 'week') return [mondayOf(cursor), addDays(mondayOf(cursor), 6)]
    const g = monthGrid(cursor)
    return [g[0], g[g.length - 1]]
  }, [view, cursor])

  const grid = useAgendaGrid({ from, to, ...(professional ? { professional } : {}) }, { enabled: view !== 'month' })
  // The month lists every appointment; the filters narrow what it counts.
  const month = useAppointments({ from, to, ...(status ? { status } : {}), ...(professional ? { professional } : {}), ...(q ? { q } : {}) }, { enabled: view === 'month' })
  useEffect(() => {
    if (team.isError || grid.isError) toast.error('Erro', { description: 'Erro ao carregar dados iniciais.' })
  }, [team.isError, grid.isError])

  // A filter narrows: what it does not match is dimmed, never turned into free time.
  const matches = useCallback((a: GridAppointment) => (!status || a.status === status) && (!q || matchesSearch(a, q)), [status, q])
  // The week's professionals: the one filtered, or everyone's; on a phone, everyone's one at a time by a tab strip.
  const weekPros = view === 'week' && grid.data ? weekProfessionals(grid.data) : []
  const tabbed = view === 'week' && !wide && weekPros.length > 1
  // (An id may be "": the column of appointments whose professional was deleted.)
  const shownTab = tabbed ? (weekPros.find((p) => p.id === tab) ?? weekPros[0]).id : undefined
  // The strip stays with one professional filtered too: there a tab changes the filter.
  const strip = view === 'week' && !wide ? (professional ? active : weekPros) : []
  const columns = useMemo(() => (grid.data ? gridColumns(grid.data, view, status === 'cancelled', shownTab) : []), [grid.data, view, status, shownTab])
  const weekOf = professional
    ? (active.find((p) => p.id === professional)?.name ?? weekPros.find((p) => p.id === professional)?.name ?? '')
    : tabbed
      ? (weekPros.find((p) => p.id === shownTab)?.name ?? '')
      : (weekPros.length > 0 ? weekPros : active).length === 1
        ? (weekPros[0] ?? active[0]).name
        : 'todos os profissionais'
  // The grid's handlers keep their identity, so the (memoised) grid is not drawn again when only the page around it changes
  // (the address before the next day's data, a query's fetching state, the team arriving).
  const onFree = useCallback((c: Column, time: string) => setNewAt({ date: c.date, time, professionalId: c.professionalId || undefined }), [])
  const onBlock = useCallback((c: Column, time: string) => setBlocking({ date: c.date, professionalId: c.professionalId, start: time }), [])
  const latestMoveTo = useRef(moveTo)
  latestMoveTo.current = moveTo
  const onMove = useCallback((a: GridAppointment, c: Column, time: string) => latestMoveTo.current(a, c, time), [])

  // Search, status and professional: inline on a wide screen, in a sheet behind "Filtros" on a phone (the same fields, one place at a time).
  const filters = (
    <>
      <div className="grid gap-1">
        <label htmlFor="agenda-search" className="text-sm font-medium">
          Buscar cliente
        </label>
        <Input id="agenda-search" placeholder="Nome ou e-mail" maxLength={100} value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <label htmlFor="agenda-status" className="text-sm font-medium">
          Status
        </label>
        <Select id="agenda-status" value={status} onChange={(e) => set({ s: e.target.value })}>
          <option value="">Todos</option>
          <option value="confirmed">confirmado</option>
          <option value="awaiting_deposit">aguardando sinal</option>
          <option value="cancelled">cancelado</option>
          <option value="completed">concluído</option>
          <option value="no_show">não compareceu</option>
        </Select>
      </div>
      {active.length > 0 ? (
        <div className="grid gap-1">
          <label htmlFor="agenda-professional" className="text-sm font-medium">
            Profissional
          </label>
          <Select id="agenda-professional" value={professional} onChange={(e) => set({ p: e.target.value })}>
            <option value="">Todos os profissionais</option>
            {active.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} — {p.specialization}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
    </>
  )

  const go = (n: number) => set({ d: view === 'day' ? addDays(cursor, n) : view === 'week' ? addDays(cursor, 7 * n) : addMonths(cursor, n) })
  const title =
    view === 'day'
      ? longDate(cursor)
      : view === 'week'
        ? `Semana ${weekOf ? `de ${weekOf} · ` : ''}${weekSpan(from, to)}`
        : monthLabel(Number(cursor.slice(0, 4)), Number(cursor.slice(5, 7)))

  function moveTo(a: GridAppointment, c: Column, time: string, yes: { outsideHours?: boolean; overPersonal?: boolean } = {}) {
    if (a.date === c.date && a.time === time && a.professionalId === c.professionalId) return
    move.mutate(
      { id: a.id, body: { date: c.date, time, professionalId: c.professionalId, outsideHours: false, ...yes, notifyClient: false, following: false } },
      {
        // Moved at once: the toast offers to undo it and to tell the client.
        onSuccess: (moved) =>
          announceMove({ was: { date: a.date, time: a.time, professionalId: a.professionalId }, moved, move: move.mutateAsync, tell: tell.mutateAsync, details: setOpen }),
        // Refused: the block stays where it was, and the reason is said.
        onError: (e) => {
          const code = e instanceof ApiError ? e.code : ''
          if (!overridable(code)) return toast.error('Não foi possível remarcar', { description: e.message })
          toast.error(code === 'personal_busy' ? 'Ocupado (agenda pessoal)' : 'Fora do horário de atendimento', {
            description: e.message,
            action: { label: 'Remarcar mesmo assim', onClick: () => moveTo(a, c, time, { ...yes, [overrideFlag[code]]: true }) },
          })
        },
      },
    )
  }

  return (
    <div className="grid min-w-0 gap-3 sm:gap-4">
      <BackLink />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight">Agenda</h1>
        <div className="flex flex-wrap gap-2">
          {/* On a phone the buttons say it short ("Bloquear", "Novo"), so the header is one line; their names stay whole. */}
          {/* Blocks are the owner's schedule: a professional signed in as themself books and moves only (issue 43). */}
          {teamMember ? null : (
            <Button variant="outline" onClick={() => setBlocking({ date: view === 'day' ? cursor : today, professionalId: professional })}>
              <Ban aria-hidden />
              <span>
                Bloquear<span className="max-sm:sr-only"> horário</span>
              </span>
            </Button>
          )}
          <Button onClick={() => setNewAt({ date: view === 'day' ? cursor : today })}>
            <Plus aria-hidden />
            <span>
              Novo<span className="max-sm:sr-only"> agendamento</span>
            </span>
          </Button>
        </div>
      </div>
      {wide ? <Card className="grid gap-3 p-4 sm:grid-cols-3">{filters}</Card> : null}

      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <div role="group" aria-label="Visualização" className="inline-flex rounded-lg border border-stone-300 p-0.5 dark:border-stone-700">
            {(['day', 'week', 'month'] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => set({ v: v === 'day' ? '' : v })}
                className={cn('rounded-md px-3 py-1.5 text-sm font-medium', view === v ? 'bg-brand-700 text-white' : 'hover:bg-stone-100 dark:hover:bg-stone-800')}
              >
                {{ day: 'Dia', week: 'Semana', month: 'Mês' }[v]}
              </button>
            ))}
          </div>
          {wide ? null : (
            <Button
              variant="outline"
              onClick={() => setFiltersOpen(true)}
              aria-haspopup="dialog"
              aria-label={filterCount > 0 ? `Filtros, ${filterCount} ${filterCount === 1 ? 'ativo' : 'ativos'}` : 'Filtros'}
            >
              <ListFilter aria-hidden /> Filtros
              {filterCount > 0 ? <span className="rounded-full bg-brand-700 px-1.5 text-xs font-semibold text-white">{filterCount}</span> : null}
            </Button>
          )}
        </div>
        <div className="flex items-center gap-1">
          <Button variant="outline" size="sm" onClick={() => go(-1)}>
            <ChevronLeft aria-hidden /> Anterior
          </Button>
          <Button variant="outline" size="sm" onClick={() => set({ d: '' })}>
            Hoje
          </Button>
          <Button variant="outline" size="sm" onClick={() => go(1)}>
            Próximo <ChevronRight aria-hidden />
          </Button>
        </div>
      </div>
      <h2 className="text-base font-semibold first-letter:uppercase sm:text-lg" aria-live="polite">
        {title}
      </h2>
      {strip.length > 1 ? (
        // The phone's week: one professional at a time. With everyone's, a tab switches and the filter stays "Todos"; with one filtered, a tab changes the filter.
        <div role="tablist" aria-label="Profissional da semana" className="-mx-4 flex gap-1 overflow-x-auto px-4 pb-1">
          {strip.map((p) => (
            <button
              key={p.id}
              type="button"
              role="tab"
              aria-selected={p.id === (professional ? professional : shownTab)}
              onClick={() => (professional ? set({ p: p.id }) : setTab(p.id))}
              className={cn(
                'shrink-0 rounded-full border px-3 py-1.5 text-sm font-medium whitespace-nowrap',
                p.id === (professional ? professional : shownTab)
                  ? 'border-brand-700 bg-brand-700 text-white'
                  : 'border-stone-300 hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800',
              )}
            >
              {p.name}
            </button>
          ))}
        </div>
      ) : null}
      {view === 'month' ? (
        month.isLoading ? (
          <div className="p-10 text-center">
            <Spinner />
          </div>
        ) : (
          <MonthView cursor={cursor} appointments={(month.data?.appointments ?? []).filter((a) => status === 'cancelled' || a.status !== 'cancelled')} today={today} onDay={(d) => set({ d, v: '' })} />
        )
      ) : !grid.data ? (
        <div className="p-10 text-center">
          <Spinner />
        </div>
      ) : columns.length === 0 ? (
        <ClosedDay grid={grid.data} />
      ) : (
        // Until the asked day's data arrives the grid still shows the last one: it is dimmed and takes no tap, so a tap
        // under tomorrow's title never books today's 11:00 (CI's weekly-series journey tapped there on a loaded machine).
        <div inert={grid.isPlaceholderData} aria-busy={grid.isPlaceholderData} className={cn('min-w-0', grid.isPlaceholderData && 'opacity-60')}>
          <TimeGrid
            columns={columns}
            today={grid.data.today}
            now={grid.data.now}
            minColumn={view === 'day' ? 136 : columns[0]?.group !== undefined ? 56 : 96}
            matches={matches}
            onOpen={setOpen}
            onFree={onFree}
            onBlock={teamMember ? undefined : onBlock}
            onMove={onMove}
          />
        </div>
      )}
      {month.data?.truncated && view === 'month' ? <p className="text-sm text-amber-700">Há agendamentos demais neste período; use os filtros para ver todos.</p> : null}
      {view === 'day' && cursor >= today && !teamMember ? <WaitlistPanel date={cursor} /> : null}

      <Dialog open={open !== null} onOpenChange={(o) => !o && setOpen(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Detalhes do agendamento</DialogTitle>
          </DialogHeader>
          {open ? (
            <AppointmentDetails
              // The client's answer as the grid has it now: it arrives live while the dialog is open.
              appointment={{ ...open, answer: grid.data?.appointments.find((a) => a.id === open.id)?.answer ?? open.answer }}
              onChanged={setOpen}
              footer={(buttons) => <DialogFooter className="sm:justify-start">{buttons}</DialogFooter>}
            />
          ) : null}
        </DialogContent>
      </Dialog>

      <Dialog open={filtersOpen && !wide} onOpenChange={setFiltersOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Filtros</DialogTitle>
          </DialogHeader>
          <div className="grid gap-3">{filters}</div>
          <DialogFooter>
            {filterCount > 0 ? (
              <Button
                variant="outline"
                onClick={() => {
                  setSearch('')
                  set({ q: '', s: '', p: '' })
                }}
              >
                Limpar filtros
              </Button>
            ) : null}
            <Button onClick={() => setFiltersOpen(false)}>Ver agenda</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={blocking !== null} onOpenChange={(o) => !o && setBlocking(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Bloquear horário</DialogTitle>
          </DialogHeader>
          {blocking ? (
            <BlockForm date={blocking.date} professionalId={blocking.professionalId} start={blocking.start} onDone={() => setBlocking(null)} onCancel={() => setBlocking(null)} />
          ) : null}
        </DialogContent>
      </Dialog>

      <Dialog open={newAt !== null} onOpenChange={(o) => !o && setNewAt(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Novo agendamento</DialogTitle>
          </DialogHeader>
          {newAt ? (
            <NewAppointmentForm
              at={{ ...newAt, professionalId: newAt.professionalId ?? (professional || onlyProfessional(team.data)) }}
              onDone={() => setNewAt(null)}
              onCancel={() => setNewAt(null)}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  )
}

/** Search by name, e-mail or phone, ignoring case and accents, as the server's search does. */
function matchesSearch(a: GridAppointment, q: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
  const needle = fold(q)
  const digits = q.replace(/\D/g, '')
  return fold(a.clientName).includes(needle) || fold(a.clientEmail).includes(needle) || (digits.length >= 3 && a.clientPhone.includes(digits))
}

type Grid = AgendaGrid

/** Nobody works that date and nothing is on it: say why, or where to set the hours. */
function ClosedDay({ grid }: { grid: Grid }) {
  const plan = grid.days[0]?.columns[0]
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
          Horários e regras
        </Link>
        .
      </p>
    </Card>
  )
}

/** The one active professional, when there is only one: the form starts with them. */
function onlyProfessional(team?: Schemas['Professional'][]): string | undefined {
  const active = (team ?? []).filter((p) => p.active)
  return active.length === 1 ? active[0].id : undefined
}

/**
 * The month: each day's count of appointments and the first names that
 * fit — never a grid cut off on a phone. A tap opens the day.
 */
function MonthView(props: { cursor: string; appointments: Appointment[]; today: string; onDay: (d: string) => void }) {
  const grid = monthGrid(props.cursor)
  const month = props.cursor.slice(0, 7)
  const byDate = new Map<string, Appointment[]>()
  for (const a of props.appointments) byDate.set(a.date, [...(byDate.get(a.date) ?? []), a])
  return (
    <div className="grid grid-cols-7 gap-0.5 sm:gap-1">
      {[1, 2, 3, 4, 5, 6, 0].map((d) => (
        <span key={d} className="py-1 text-center text-xs font-medium text-stone-500 dark:text-stone-400" title={weekdays[d]}>
          {short[d]}
        </span>
      ))}
      {grid.map((d) => {
        const list = byDate.get(d) ?? []
        const outside = d.slice(0, 7) !== month
        return (
          <button
            key={d}
            type="button"
            data-testid={`month-day-${d}`}
            onClick={() => props.onDay(d)}
            className={cn(
              'min-h-16 min-w-0 rounded-md border border-stone-200 p-1 text-left hover:border-brand-400 sm:min-h-24 sm:p-1.5 dark:border-stone-800',
              outside && 'border-dashed text-stone-500 dark:text-stone-400',
              d === props.today && 'border-brand-600 bg-brand-50 dark:bg-brand-900/20',
            )}
          >
            {/* The name is what the day shows (WCAG 2.5.3): its date in full for a screen reader, the count and first names as seen. */}
            <span className="sr-only">{`${longDate(d)}: `}</span>
            <span aria-hidden="true" className="block text-xs font-semibold">
              {Number(d.slice(8))}
            </span>
            {list.length === 0 ? <span className="sr-only">nenhum agendamento</span> : null}
            {list.length > 0 ? (
              <>
                <span className="mt-0.5 block truncate rounded bg-brand-100 px-1 text-[11px] font-semibold text-brand-900 dark:bg-brand-900/50 dark:text-brand-100">
                  {list.length}
                  <span className="sr-only sm:not-sr-only"> {list.length === 1 ? 'agendamento' : 'agendamentos'}</span>
                </span>
                {list.slice(0, 3).map((a) => (
                  <span key={a.id} className="hidden truncate text-[11px] sm:block">
                    <span className="tabular-nums">{a.time}</span> {a.clientName.split(' ')[0]}
                  </span>
                ))}
              </>
            ) : null}
          </button>
        )
      })}
    </div>
  )
}

import { Ban, CalendarX2, Repeat } from 'lucide-react'
import { memo, useCallback, useMemo, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react'
import { toast } from 'sonner'
import { answerLabel } from '@/components/answer-badge'
import { useConfirm } from '@/components/ui/confirm-dialog'
import { depositLabel } from '@/lib/api/endpoints/deposits'
import type { Schemas } from '@/lib/api/client'
import { statusLabel } from '@/lib/format'
import { clsx as cn } from 'clsx' // no conflicting classes here: tailwind-merge's work is not needed for hundreds of blocks
import { useDeleteBlock } from './api/blocks'
import { fromMinutes, toMinutes } from '@/lib/dates'
import { axis, freeCells, lanes, minuteAt, shading, type GridAppointment, type Span } from './grid'

export type { GridAppointment }
type Block = Schemas['Block']
/** Busy time imported from the professional's own calendar (issue 42). */
export type PersonalBusy = Schemas['AgendaGrid']['busy'][number]
type Plan = { windows: Schemas['Window'][]; closed: string; label: string }

/** One column of the grid: a professional on a date (day view), a date of one professional (week view), or a professional under a date (the week of everyone). */
export type Column = {
  key: string
  title: string
  subtitle?: string
  /** The heading over consecutive columns that share it (the date, in the week of everyone). */
  group?: string
  /** The column's name for assistive tech, when the title alone does not say it (a professional's first name under a date). */
  label?: string
  date: string
  professionalId: string
  plan: Plan
  appointments: GridAppointment[]
  blocks: Block[]
  /** The professional's own calendar's busy time of the date. */
  busy: PersonalBusy[]
}

const PX = 1.2 // pixels a minute: an hour is 72 px, a 30-minute appointment 36 px
const DRAG = 'application/x-agendei-appointment'

const span = (a: GridAppointment): Span => ({ start: toMinutes(a.time), end: toMinutes(a.time) + Math.max(a.duration, 1) })
const holds = (a: GridAppointment) => a.status !== 'cancelled'

/**
 * The agenda as a calendar: a time axis and one column per professional (or
 * date), each appointment a block at its start as tall as it lasts (buffers
 * a lighter tail), overlapping ones side by side, the hours outside each
 * column's windows, breaks, days off and blocks shaded with their label, and
 * a line at "now". Nothing is hidden: an appointment the filters do not
 * match is dimmed, never removed. A tap on a free stretch books it (a long
 * press or right click blocks it); on a desktop an appointment can be
 * dragged to another time or column. Arrow keys move between slots.
 */
export const TimeGrid = memo(function TimeGrid(props: {
  columns: Column[]
  today: string
  now: string
  minColumn: number
  matches: (a: GridAppointment) => boolean
  onOpen: (a: GridAppointment) => void
  onFree: (c: Column, time: string) => void
  /** A right click on a free time blocks it; absent for a professional signed in as themself (issue 43). */
  onBlock?: (c: Column, time: string) => void
  onMove: (a: GridAppointment, c: Column, time: string) => void
}) {
  const spans: Span[] = []
  for (const c of props.columns) {
    for (const w of c.plan.windows) spans.push({ start: toMinutes(w.start), end: toMinutes(w.end) })
    for (const a of c.appointments) spans.push({ start: span(a).start - a.bufferBefore, end: span(a).end + a.bufferAfter })
    for (const b of c.blocks) spans.push({ start: toMinutes(b.start), end: toMinutes(b.end) })
    for (const b of c.busy) spans.push({ start: toMinutes(b.start), end: toMinutes(b.end) })
  }
  const range = axis(spans)
  const byId = useMemo(() => new Map(props.columns.flatMap((c) => c.appointments.map((a) => [a.id, a] as const))), [props.columns])
  const find = useCallback((id: string) => byId.get(id), [byId])
  const height = (range.end - range.start) * PX
  const hours: number[] = []
  for (let m = range.start; m < range.end; m += 60) hours.push(m)
  // The week of everyone: a row of dates over the professionals' columns, each date's first column marked by a heavier line.
  const groups: { key: string; title: string; span: number; today: boolean }[] = []
  for (const c of props.columns) {
    const last = groups[groups.length - 1]
    if (c.group === undefined) continue
    if (last && last.title === c.group) last.span++
    else groups.push({ key: c.key, title: c.group, span: 1, today: c.date === props.today })
  }
  const starts = new Set(props.columns.filter((c, i) => c.group !== undefined && i > 0 && props.columns[i - 1].group !== c.group).map((c) => c.key))

  return (
    <div
      role="region"
      aria-label="Grade da agenda"
      className="max-h-[72vh] overflow-auto overscroll-contain rounded-xl border border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-950"
      onKeyDown={navigate}
    >
      <div className="grid" style={{ gridTemplateColumns: `3.25rem repeat(${props.columns.length}, minmax(${props.minColumn}px, 1fr))` }}>
        <div className="sticky top-0 left-0 z-30 border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-950" style={groups.length > 0 ? { gridRow: 'span 2' } : undefined} />
        {groups.map((g, i) => (
          <div
            key={`group-${g.key}`}
            className={cn(
              'sticky top-0 z-20 h-7 truncate border-b border-l border-stone-200 bg-white px-2 pt-1 text-sm font-semibold dark:border-stone-800 dark:bg-stone-950',
              i > 0 && 'border-l-2 border-l-stone-400 dark:border-l-stone-600',
              g.today && 'text-brand-800 dark:text-brand-200',
            )}
            style={{ gridColumn: `span ${g.span}` }}
            data-testid="agenda-group-title"
          >
            {g.title}
          </div>
        ))}
        {props.columns.map((c) => (
          <div
            key={c.key}
            className={cn(
              'sticky z-20 truncate border-b border-l border-stone-200 bg-white font-semibold dark:border-stone-800 dark:bg-stone-950',
              // Under a date, a professional's narrow column: its first name in small type (clsx merges nothing, so each size is said once).
              groups.length > 0 ? 'top-7 px-1 py-1 text-xs' : 'top-0 px-2 py-1.5 text-sm',
              starts.has(c.key) && 'border-l-2 border-l-stone-400 dark:border-l-stone-600',
              c.date === props.today && 'text-brand-800 dark:text-brand-200',
            )}
            title={c.label}
            data-testid="agenda-column-title"
          >
            {c.title}
            {c.subtitle ? <span className="block truncate text-xs font-normal text-stone-500 dark:text-stone-400">{c.subtitle}</span> : null}
          </div>
        ))}
        <div className="sticky left-0 z-10 border-r border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-950" style={{ height }} aria-hidden>
          {hours.map((m) => (
            <span key={m} className="absolute right-1 -translate-y-1/2 text-[11px] tabular-nums text-stone-500 first:translate-y-0 dark:text-stone-400" style={{ top: (m - range.start) * PX }}>
              {fromMinutes(m)}
            </span>
          ))}
        </div>
        {props.columns.map((c, i) => (
          <ColumnBody key={c.key} column={c} index={i} range={range} height={height} find={find} first={starts.has(c.key)} {...props} />
        ))}
      </div>
    </div>
  )
})

/** Arrow keys move between the grid's slots and appointments: up and down in a column, left and right to the nearest in the next. */
function navigate(e: KeyboardEvent<HTMLDivElement>) {
  const from = e.target as HTMLElement
  if (!from.dataset || from.dataset.col === undefined || !['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(e.key)) return
  const col = Number(from.dataset.col)
  const min = Number(from.dataset.min)
  const all = Array.from(e.currentTarget.querySelectorAll<HTMLElement>('[data-col][data-min]'))
  const at = (c: number) => all.filter((el) => Number(el.dataset.col) === c).sort((a, b) => Number(a.dataset.min) - Number(b.dataset.min))
  let to: HTMLElement | undefined
  if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    const list = at(col)
    const i = list.indexOf(from)
    to = list[e.key === 'ArrowUp' ? i - 1 : i + 1]
  } else {
    const list = at(col + (e.key === 'ArrowLeft' ? -1 : 1))
    to = list.reduce<HTMLElement | undefined>((best, el) => (!best || Math.abs(Number(el.dataset.min) - min) < Math.abs(Number(best.dataset.min) - min) ? el : best), undefined)
  }
  if (to) {
    e.preventDefault()
    to.focus()
  }
}

/** The free stretch (its HH:MM) a click, Enter or long press inside a column landed on, if any: the column handles its stretches, so each stretch is one bare element. */
function freeAt(e: MouseEvent<HTMLElement>): string | undefined {
  return (e.target as HTMLElement).closest<HTMLElement>('[data-free]')?.dataset.free
}

function ColumnBody(props: {
  column: Column
  index: number
  range: Span
  height: number
  first: boolean
  find: (id: string) => GridAppointment | undefined
  today: string
  now: string
  matches: (a: GridAppointment) => boolean
  onOpen: (a: GridAppointment) => void
  onFree: (c: Column, time: string) => void
  /** A right click on a free time blocks it; absent for a professional signed in as themself (issue 43). */
  onBlock?: (c: Column, time: string) => void
  onMove: (a: GridAppointment, c: Column, time: string) => void
}) {
  const { column: c, range } = props
  const top = (m: number) => (m - range.start) * PX
  const closed = c.plan.windows.length === 0 && c.plan.closed !== '' && c.plan.closed !== 'weekday'
  const taken: Span[] = [
    ...c.appointments.filter(holds).map((a) => ({ start: span(a).start - a.bufferBefore, end: span(a).end + a.bufferAfter })),
    ...c.blocks.map((b) => ({ start: toMinutes(b.start), end: toMinutes(b.end) })),
  ]
  const free = freeCells(c.plan.windows, taken)
  const placed = lanes(c.appointments.map((a) => ({ item: a, span: span(a) })))
  const nowMin = toMinutes(props.now)
  const name = `${c.label ?? c.title}${c.subtitle ? `, ${c.subtitle}` : ''}`

  function drop(e: DragEvent<HTMLDivElement>) {
    const id = e.dataTransfer.getData(DRAG)
    if (!id) return
    e.preventDefault()
    const moved = props.find(id)
    if (!moved) return
    const grab = Number(e.dataTransfer.getData('text/x-agendei-grab') || 0)
    const rect = e.currentTarget.getBoundingClientRect()
    props.onMove(moved, c, fromMinutes(minuteAt(e.clientY - rect.top - grab, range, PX)))
  }

  return (
    <div
      className={cn('relative border-l border-stone-200 dark:border-stone-800', props.first && 'border-l-2 border-l-stone-400 dark:border-l-stone-600')}
      style={{
        height: props.height,
        backgroundImage: `repeating-linear-gradient(to bottom, transparent 0, transparent ${60 * PX - 1}px, var(--grid-line, rgb(231 229 228)) ${60 * PX - 1}px, var(--grid-line, rgb(231 229 228)) ${60 * PX}px)`,
      }}
      role="group"
      aria-label={name}
      data-testid="agenda-column"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG)) e.preventDefault()
      }}
      onDrop={drop}
      onClick={(e) => {
        const time = freeAt(e)
        if (time) props.onFree(c, time)
      }}
      onContextMenu={(e) => {
        const time = freeAt(e)
        if (!time || !props.onBlock) return
        e.preventDefault()
        props.onBlock(c, time)
      }}
    >
      {shading(c.plan.windows, range).map((s) => (
        <div
          key={`${s.kind}-${s.span.start}`}
          className={cn('absolute inset-x-0 bg-stone-100/90 dark:bg-stone-900/80', s.kind === 'break' && 'bg-stone-200/70 dark:bg-stone-800/70')}
          style={{ top: top(s.span.start), height: (s.span.end - s.span.start) * PX }}
        >
          {s.label || (closed && s.span.start === range.start) ? (
            <span className="block truncate px-1.5 pt-1 text-[11px] font-semibold tracking-wide text-stone-600 dark:text-stone-300">{s.label || c.plan.label}</span>
          ) : null}
        </div>
      ))}
      {free.map((m) => (
        <button
          key={`free-${m}`}
          type="button"
          data-col={props.index}
          data-min={m}
          data-free={fromMinutes(m)}
          aria-label={`DISPONÍVEL ${fromMinutes(m)} — ${name}`}
          title="Toque para agendar; toque longo (ou botão direito) para bloquear"
          className="grid-free absolute inset-x-0 z-[1] border-t border-dashed border-stone-100 text-left outline-none hover:bg-brand-50 focus-visible:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset dark:border-stone-900 dark:hover:bg-brand-900/30 dark:focus-visible:bg-brand-900/30"
          style={{ top: top(m), height: 30 * PX }}
        />
      ))}
      {c.blocks.map((b) => (
        <BlockBox key={b.id} block={b} top={top(toMinutes(b.start))} height={(toMinutes(b.end) - toMinutes(b.start)) * PX} />
      ))}
      {c.busy.map((b) => (
        <BusyBox key={`busy-${b.start}-${b.end}-${b.title}`} busy={b} top={top(toMinutes(b.start))} height={(toMinutes(b.end) - toMinutes(b.start)) * PX} />
      ))}
      {placed.map(({ item: a, span: s, lane, lanes: n }) => (
        <AppointmentBox
          key={a.id}
          a={a}
          col={props.index}
          top={top(s.start)}
          height={Math.max((s.end - s.start) * PX, 22)}
          before={a.bufferBefore * PX}
          after={a.bufferAfter * PX}
          left={`${(lane / n) * 100}%`}
          width={`${100 / n}%`}
          dim={!props.matches(a)}
          onOpen={props.onOpen}
        />
      ))}
      {c.date === props.today && nowMin >= range.start && nowMin <= range.end ? (
        <div className="pointer-events-none absolute inset-x-0 z-[5] border-t-2 border-red-500" style={{ top: top(nowMin) }} aria-hidden>
          <span className="absolute -top-1.5 -left-1 size-3 rounded-full bg-red-500" />
        </div>
      ) : null}
    </div>
  )
}

const tone: Record<string, string> = {
  confirmed: 'border-brand-600 bg-brand-50 text-brand-950 dark:bg-brand-900/60 dark:text-brand-50',
  completed: 'border-emerald-600 bg-emerald-50 text-emerald-950 dark:bg-emerald-900/50 dark:text-emerald-50',
  no_show: 'border-amber-600 bg-amber-50 text-amber-950 dark:bg-amber-900/50 dark:text-amber-50',
  // A hold awaiting its Pix (issue 39): its time is taken, but it is not confirmed — outlined, not filled.
  awaiting_deposit: 'border-brand-500 border-dashed bg-white text-brand-950 dark:bg-stone-900 dark:text-brand-50',
  cancelled: 'border-stone-400 bg-stone-100 text-stone-600 line-through dark:bg-stone-800 dark:text-stone-300',
}

const AppointmentBox = memo(function AppointmentBox(props: {
  a: GridAppointment
  col: number
  top: number
  height: number
  before: number
  after: number
  left: string
  width: string
  dim: boolean
  onOpen: (a: GridAppointment) => void
}) {
  const { a, before, after } = props
  const status = statusLabel(a.status)
  // As few elements as an appointment can be: the button alone, placed in its lane (a 2 px gap each side); with buffers, a box around it
  // whose background above and below the button's margins is the lighter tail. The status icon is the status line's ::before
  // (grid-status-*), so a day of a hundred appointments creates a few hundred elements, not a thousand.
  const tails = before > 0 || after > 0
  // The client's answer to a reminder: for what is still ahead, and for a cancellation that was theirs (its icon is the line's ::before too).
  const answer = a.status === 'confirmed' || a.answer === 'cancelled' ? answerLabel(a.answer) : ''
  // The deposit (issue 29): its words ('Sinal pendente', 'Sinal pago', …) with an icon of its own, never a colour alone.
  const deposit = a.deposit ? (depositLabel[a.deposit] ?? '') : ''
  // The status line says "Aguardando sinal" already: 'Sinal pendente' below it would say it twice.
  const depositLine = deposit && !(a.status === 'awaiting_deposit' && a.deposit === 'pending')
  const movable = a.status === 'confirmed' || a.status === 'awaiting_deposit'
  const button = (
    <button
      type="button"
      data-col={props.col}
      data-min={toMinutes(a.time)}
      draggable={movable}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG, a.id)
        e.dataTransfer.setData('text/x-agendei-grab', String(e.clientY - e.currentTarget.getBoundingClientRect().top))
        e.dataTransfer.effectAllowed = 'move'
      }}
      onClick={() => props.onOpen(a)}
      // What the box shows, in its order (WCAG 2.5.3: the name contains the visible text), then what it does not show.
      aria-label={`${a.time} ${a.clientName}, ${a.serviceName}${a.status !== 'confirmed' ? `, ${status}` : ''}${answer ? `, ${answer}` : ''}${deposit ? `, ${deposit}` : ''}${a.personalBusy ? `, ${personalClash}` : ''}, ${a.duration} min${a.status === 'confirmed' ? `, ${status}` : ''}${a.seriesId ? ', recorrente' : ''}${props.dim ? ' (fora do filtro)' : ''}`}
      className={cn(
        'block w-full overflow-hidden rounded-md border-l-4 px-1.5 py-0.5 text-left text-xs leading-tight shadow-sm hover:brightness-95 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
        tone[a.status] ?? tone.confirmed,
        movable && 'cursor-grab active:cursor-grabbing',
        !tails && 'absolute z-[3]',
        !tails && props.dim && 'opacity-40',
      )}
      style={
        tails
          ? { height: props.height, marginTop: before || undefined, marginBottom: after || undefined }
          : { height: props.height, top: props.top, left: `calc(${props.left} + 2px)`, width: `calc(${props.width} - 4px)` }
      }
    >
      {/* On a phone a box shows its first line or two: the deposit's icon leads it, so the mark is seen, not only named (issue 39). */}
      {a.deposit ? <span className={`grid-status grid-deposit-${a.deposit}`} data-deposit-mark={a.deposit} aria-hidden /> : null}
      <span className="font-semibold tabular-nums">{a.time}</span>{' '}
      <span className="font-medium">{a.clientName}</span>
      {a.seriesId ? <Repeat className="ml-1 inline size-3" aria-hidden /> : null}
      {/* The spaces between the lines keep the visible text readable as words, as the name reads it (WCAG 2.5.3). */}{' '}
      <span className="block truncate">{a.serviceName}</span>{' '}
      {a.status !== 'confirmed' ? <span className={`grid-status grid-status-${a.status} block truncate font-semibold no-underline`}>{status}</span> : null}{' '}
      {answer ? (
        <span className={`grid-status grid-answer-${a.answer || 'none'} block truncate no-underline`} data-answer={a.answer || 'none'}>
          {answer}
        </span>
      ) : null}{' '}
      {depositLine ? (
        <span className={`grid-status grid-deposit-${a.deposit} block truncate no-underline`} data-deposit={a.deposit}>
          {deposit}
        </span>
      ) : null}{' '}
      {a.personalBusy ? (
        <span className="block truncate font-semibold text-amber-800 dark:text-amber-200" data-personal-busy>
          <CalendarX2 className="mr-0.5 inline size-3" aria-hidden />
          {personalClash}
        </span>
      ) : null}
    </button>
  )
  if (!tails) return button
  return (
    <div
      className={cn('absolute z-[3] rounded-md bg-brand-100/60 bg-clip-content px-0.5 dark:bg-brand-900/30', props.dim && 'opacity-40')}
      style={{ top: props.top - before, left: props.left, width: props.width }}
    >
      {button}
    </div>
  )
})

/** The mark of an appointment that the professional's own calendar has busy time over (issue 42). */
const personalClash = 'Conflito com a agenda pessoal'

/**
 * Busy time from the professional's own calendar: 'Ocupado (agenda pessoal)', with the event's title only when the owner
 * turned titles on. Taps go through it to the free stretch below: the owner may book over it, after a yes.
 */
function BusyBox({ busy: b, top, height }: { busy: PersonalBusy; top: number; height: number }) {
  const range = `${b.start}–${b.end === '24:00' ? '00:00' : b.end}`
  return (
    <div
      className="pointer-events-none absolute inset-x-0 z-[2] overflow-hidden border-y border-dashed border-amber-400 bg-amber-50/85 px-1.5 py-0.5 text-[11px] text-amber-900 dark:border-amber-700 dark:bg-amber-950/70 dark:text-amber-100"
      style={{ top, height }}
      role="note"
      aria-label={`Ocupado (agenda pessoal) ${range}${b.title ? ` · ${b.title}` : ''}`}
      data-testid="personal-busy"
    >
      <span className="font-semibold">
        <CalendarX2 className="mr-0.5 inline size-3" aria-hidden />
        Ocupado (agenda pessoal)
      </span>{' '}
      {range}
      {b.title ? ` · ${b.title}` : ''}
    </div>
  )
}

/** A block: hatched, with its range, reason and who it concerns, and a way to give the time back. */
function BlockBox({ block: b, top, height }: { block: Block; top: number; height: number }) {
  const remove = useDeleteBlock()
  const [confirm, confirmation] = useConfirm()
  return (
    <div
      className="absolute inset-x-0 z-[2] overflow-hidden border-y border-stone-300 px-1.5 py-0.5 text-[11px] text-stone-700 dark:border-stone-700 dark:text-stone-200"
      style={{
        top,
        height,
        backgroundImage: 'repeating-linear-gradient(135deg, rgb(214 211 209 / 0.55) 0 6px, rgb(245 245 244 / 0.85) 6px 12px)',
      }}
      role="note"
      aria-label={`BLOQUEADO ${b.start}–${b.end}${b.reason ? ` · ${b.reason}` : ''} · ${b.professionalName || 'Toda a clínica'}`}
    >
      <span className="font-semibold tracking-wide">
        <Ban className="mr-0.5 inline size-3" aria-hidden />
        BLOQUEADO
      </span>{' '}
      {b.start}–{b.end}
      {b.reason ? ` · ${b.reason}` : ''}
      <button
        type="button"
        className="ml-1 font-medium text-brand-800 underline dark:text-brand-200"
        disabled={remove.isPending}
        onClick={async () => {
          const yes = await confirm({
            title: 'Remover este bloqueio?',
            description: `${b.start}–${b.end}${b.reason ? ` (${b.reason})` : ''} volta a ficar disponível para agendamentos.`,
            action: 'Remover bloqueio',
          })
          if (!yes) return
          remove.mutate(b.id, {
            onSuccess: () => toast.success('Bloqueio removido'),
            onError: () => toast.error('Erro', { description: 'Não foi possível remover o bloqueio. Tente novamente.' }),
          })
        }}
      >
        Remover bloqueio
      </button>
      {confirmation}
    </div>
  )
}

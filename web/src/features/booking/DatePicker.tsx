import { ChevronLeft, ChevronRight } from 'lucide-react'
import { pad } from '@/lib/dates'
import { monthLabel } from '@/lib/format'
import { cn } from '@/lib/utils'

const heads = ['D', 'S', 'T', 'Q', 'Q', 'S', 'S']
const headNames = ['domingo', 'segunda', 'terça', 'quarta', 'quinta', 'sexta', 'sábado']

/**
 * A light single-day calendar: a month grid where only `isEnabled` days can
 * be picked — and `isFull` ones, open days whose times are all taken, which
 * read "lotado" and lead to the waitlist (issue 39, point 12).
 */
export function DatePicker(props: {
  month: string // YYYY-MM
  onMonth: (month: string) => void
  value: string
  onChange: (date: string) => void
  isEnabled: (date: string) => boolean
  isFull?: (date: string) => boolean
  minMonth: string
  /** The last month that can be shown (the booking window's end). */
  maxMonth?: string
}) {
  const [y, m] = props.month.split('-').map(Number)
  const first = new Date(Date.UTC(y, m - 1, 1)).getUTCDay()
  const count = new Date(Date.UTC(y, m, 0)).getUTCDate()
  const cells: (string | null)[] = [...Array(first).fill(null), ...Array.from({ length: count }, (_, i) => `${y}-${pad(m)}-${pad(i + 1)}`)]
  const shift = (delta: number) => {
    const d = new Date(Date.UTC(y, m - 1 + delta, 1))
    props.onMonth(`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`)
  }
  return (
    <div className="rounded-xl border border-stone-200 p-3 dark:border-stone-800">
      <div className="mb-2 flex items-center justify-between">
        <button type="button" className="rounded-lg p-2 hover:bg-stone-100 disabled:opacity-30 dark:hover:bg-stone-800" aria-label="Mês anterior" disabled={props.month <= props.minMonth} onClick={() => shift(-1)}>
          <ChevronLeft className="size-4" aria-hidden />
        </button>
        <p className="font-medium" aria-live="polite">
          {monthLabel(y, m)}
        </p>
        <button
          type="button"
          className="rounded-lg p-2 hover:bg-stone-100 disabled:opacity-30 dark:hover:bg-stone-800"
          aria-label="Próximo mês"
          disabled={props.maxMonth !== undefined && props.month >= props.maxMonth}
          onClick={() => shift(1)}
        >
          <ChevronRight className="size-4" aria-hidden />
        </button>
      </div>
      <div role="group" aria-label="Calendário" className="grid grid-cols-7 gap-1 text-center text-sm">
        {heads.map((h, i) => (
          <span key={i} className="py-1 text-xs font-medium text-stone-500 dark:text-stone-400" title={headNames[i]} aria-hidden>
            {h}
          </span>
        ))}
        {cells.map((date, i) =>
          date ? (
            <Day key={date} date={date} picked={props.value === date} enabled={props.isEnabled(date)} full={props.isFull?.(date) ?? false} onPick={() => props.onChange(date)} />
          ) : (
            <span key={`e${i}`} />
          ),
        )}
      </div>
    </div>
  )
}

/** One day of the month: free, full ("lotado", still picked: it offers the waitlist) or closed (disabled). */
function Day({ date, picked, enabled, full, onPick }: { date: string; picked: boolean; enabled: boolean; full: boolean; onPick: () => void }) {
  const n = Number(date.slice(8))
  return (
    <button
      type="button"
      disabled={!enabled && !full}
      aria-pressed={picked}
      aria-label={full ? undefined : `Dia ${n}`}
      onClick={onPick}
      className={cn(
        'h-10 rounded-lg disabled:cursor-not-allowed disabled:text-stone-300 dark:disabled:text-stone-700',
        full && 'flex flex-col items-center justify-center leading-none',
        picked ? 'bg-brand-700 font-semibold text-white' : cn('hover:bg-brand-50 dark:hover:bg-brand-900/30', full && 'text-stone-500 dark:text-stone-400'),
      )}
    >
      {full ? (
        <>
          <span className="sr-only">{`Dia ${n} lotado`}</span>
          <span aria-hidden="true">{n}</span>
          <span aria-hidden="true" className="text-[10px] font-medium">
            lotado
          </span>
        </>
      ) : (
        n
      )}
    </button>
  )
}

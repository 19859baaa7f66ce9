import { ChevronLeft, ChevronRight } from 'lucide-react'
import { pad } from '@/lib/dates'
import { monthLabel } from '@/lib/format'
import { cn } from '@/lib/utils'

const heads = ['D', 'S', 'T', 'Q', 'Q', 'S', 'S']
const headNames = ['domingo', 'segunda', 'terça', 'quarta', 'quinta', 'sexta', 'sábado']

/** A light single-day calendar: a month grid where only `isEnabled` days can be picked. */
export function DatePicker(props: {
  month: string // YYYY-MM
  onMonth: (month: string) => void
  value: string
  onChange: (date: string) => void
  isEnabled: (date: string) => boolean
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
            <button
              key={date}
              type="button"
              disabled={!props.isEnabled(date)}
              aria-pressed={props.value === date}
              aria-label={`Dia ${Number(date.slice(8))}`}
              onClick={() => props.onChange(date)}
              className={cn(
                'h-10 rounded-lg disabled:cursor-not-allowed disabled:text-stone-300 dark:disabled:text-stone-700',
                props.value === date ? 'bg-brand-700 font-semibold text-white' : 'hover:bg-brand-50 dark:hover:bg-brand-900/30',
              )}
            >
              {Number(date.slice(8))}
            </button>
          ) : (
            <span key={`e${i}`} />
          ),
        )}
      </div>
    </div>
  )
}

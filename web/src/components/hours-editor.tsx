import type { Schemas } from '@/lib/api/client'
import { weekdays } from '@/lib/format'
import { Input } from './ui/input'

type Day = Schemas['Day']

/** Seven rows, Sunday to Saturday: an enable checkbox and start/end times; closed days read 'Fechado'. */
export function HoursEditor({ days, onChange }: { days: Day[]; onChange: (days: Day[]) => void }) {
  const update = (i: number, patch: Partial<Day>) => onChange(days.map((d, j) => (j === i ? { ...d, ...patch } : d)))
  return (
    <div className="grid gap-2">
      {days.map((d, i) => (
        <div key={d.dayOfWeek} className="grid grid-cols-[1fr_auto] items-center gap-3 rounded-xl border border-stone-200 p-3 sm:grid-cols-[12rem_1fr] dark:border-stone-800">
          <label className="flex items-center gap-2 font-medium">
            <input type="checkbox" className="size-4 accent-brand-700" checked={d.enabled} onChange={(e) => update(i, { enabled: e.target.checked })} />
            {weekdays[d.dayOfWeek]}
          </label>
          {d.enabled ? (
            <div className="col-span-2 flex items-center gap-2 sm:col-span-1">
              <label className="sr-only" htmlFor={`start-${d.dayOfWeek}`}>
                Início ({weekdays[d.dayOfWeek]})
              </label>
              <Input id={`start-${d.dayOfWeek}`} type="time" className="w-32" value={d.start} onChange={(e) => update(i, { start: e.target.value })} />
              <span aria-hidden>às</span>
              <label className="sr-only" htmlFor={`end-${d.dayOfWeek}`}>
                Fim ({weekdays[d.dayOfWeek]})
              </label>
              <Input id={`end-${d.dayOfWeek}`} type="time" className="w-32" value={d.end} onChange={(e) => update(i, { end: e.target.value })} />
            </div>
          ) : (
            <span className="text-sm text-stone-500 dark:text-stone-400">Fechado</span>
          )}
        </div>
      ))}
    </div>
  )
}

import { Plus, X } from 'lucide-react'
import type { Schemas } from '@/lib/api/client'
import { fromMinutes, toMinutes } from '@/lib/dates'
import { weekdays } from '@/lib/format'
import { Button } from './ui/button'
import { Input } from './ui/input'

type Day = Schemas['Day']
type Window = Schemas['Window']

/** A weekday with its windows, and its start and end kept as the first start and the last end. */
export function withWindows(day: Day, windows: Window[]): Day {
  return { ...day, windows, start: windows[0]?.start ?? day.start, end: windows[windows.length - 1]?.end ?? day.end }
}

/** Seven closed-or-open days in the form's shape, from a start and end per weekday. */
export function weekOf(spans: { enabled: boolean; start: string; end: string }[]): Day[] {
  return spans.map((s, d) => ({ dayOfWeek: d, enabled: s.enabled, start: s.start, end: s.end, windows: [{ start: s.start, end: s.end }] }))
}

/** A new window an hour after the day's last one ends, two hours long, within the day. */
function nextWindow(windows: Window[]): Window {
  const last = windows.length > 0 ? toMinutes(windows[windows.length - 1].end) : 8 * 60
  const start = Math.min(last + 60, 22 * 60)
  return { start: fromMinutes(start), end: fromMinutes(Math.min(start + 120, 23 * 60 + 59)) }
}

/**
 * Seven rows, Sunday to Saturday: an enable checkbox and the day's windows
 * (start and end times; 'Adicionar período' adds another after a break, a
 * 'pausa'; 'intervalo' names only the slot step, 'margem' a service's buffer);
 * closed days read 'Fechado'. The first window's fields are labelled
 * 'Início (dia)' and 'Fim (dia)', the others with their number.
 */
export function HoursEditor({ days, onChange }: { days: Day[]; onChange: (days: Day[]) => void }) {
  const update = (i: number, patch: Partial<Day>) => onChange(days.map((d, j) => (j === i ? { ...d, ...patch } : d)))
  const setWindows = (i: number, windows: Window[]) => onChange(days.map((d, j) => (j === i ? withWindows(d, windows) : d)))
  return (
    <div className="grid gap-2">
      {days.map((d, i) => {
        const name = weekdays[d.dayOfWeek]
        const windows = d.windows.length > 0 ? d.windows : [{ start: d.start, end: d.end }]
        return (
          <div key={d.dayOfWeek} className="grid grid-cols-[1fr_auto] items-start gap-3 rounded-xl border border-stone-200 p-3 sm:grid-cols-[12rem_1fr] dark:border-stone-800">
            <label className="flex items-center gap-2 pt-2 font-medium">
              <input type="checkbox" className="size-4 accent-brand-700" checked={d.enabled} onChange={(e) => update(i, { enabled: e.target.checked })} />
              {name}
            </label>
            {d.enabled ? (
              <div className="col-span-2 grid gap-2 sm:col-span-1">
                {windows.map((w, k) => {
                  const suffix = k === 0 ? `(${name})` : `do período ${k + 1} (${name})`
                  const set = (patch: Partial<Window>) => setWindows(i, windows.map((x, n) => (n === k ? { ...x, ...patch } : x)))
                  return (
                    <div key={k} className="flex flex-wrap items-center gap-2">
                      <label className="sr-only" htmlFor={`start-${d.dayOfWeek}-${k}`}>
                        Início {suffix}
                      </label>
                      <Input id={`start-${d.dayOfWeek}-${k}`} type="time" className="w-32" value={w.start} onChange={(e) => set({ start: e.target.value })} />
                      <span aria-hidden>às</span>
                      <label className="sr-only" htmlFor={`end-${d.dayOfWeek}-${k}`}>
                        Fim {suffix}
                      </label>
                      <Input id={`end-${d.dayOfWeek}-${k}`} type="time" className="w-32" value={w.end} onChange={(e) => set({ end: e.target.value })} />
                      {k > 0 ? (
                        <Button type="button" variant="ghost" size="icon" aria-label={`Remover período ${k + 1} (${name})`} onClick={() => setWindows(i, windows.filter((_, n) => n !== k))}>
                          <X className="size-4" aria-hidden />
                        </Button>
                      ) : null}
                    </div>
                  )
                })}
                {windows.length < 6 ? (
                  <div>
                    <Button type="button" variant="ghost" size="sm" aria-label={`Adicionar período (${name})`} onClick={() => setWindows(i, [...windows, nextWindow(windows)])}>
                      <Plus className="size-4" aria-hidden /> Adicionar período
                    </Button>
                  </div>
                ) : null}
              </div>
            ) : (
              <span className="pt-2 text-sm text-stone-500 dark:text-stone-400">Fechado</span>
            )}
          </div>
        )
      })}
    </div>
  )
}

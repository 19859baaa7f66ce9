// Which professional and date each column of the agenda's time grid draws, for the day and the week.
import { weekday } from '@/lib/dates'
import type { AgendaGrid } from './api/get-agenda-grid'
import type { Column } from './TimeGrid'

export type View = 'day' | 'week' | 'month'
export const shortWeekdays = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb']

type Professional = AgendaGrid['professionals'][number]

const dateTitle = (date: string) => `${shortWeekdays[weekday(date)]} ${date.slice(8)}/${date.slice(5, 7)}`

/**
 * The grid's columns. Day: one per professional who works that date or has
 * anything on it (appointments, blocks), in the team's order. Week: one per
 * date when it draws one professional (the one asked for, `only` — the
 * phone's tab — or the only one there is); with everyone, each date divided
 * by professional — every professional of the grid on every date, so a day
 * off is shaded rather than a missing column — under the date (`group`).
 * Cancelled appointments hold no time and are left out unless the status
 * filter asks for them.
 */
export function gridColumns(g: AgendaGrid, view: View, showCancelled: boolean, only?: string): Column[] {
  const shown = g.appointments.filter((a) => showCancelled || a.status !== 'cancelled')
  const blocksOf = (date: string, pro: string) => g.blocks.filter((b) => b.date === date && (b.professionalId === null || b.professionalId === pro))
  const drawn = view === 'week' ? weekProfessionals(g, only) : g.professionals
  const divided = view === 'week' && drawn.length > 1
  const names = shortNames(drawn)
  const out: Column[] = []
  for (const day of g.days) {
    for (const [i, plan] of day.columns.entries()) {
      const pro = g.professionals[i]
      if (!pro || !drawn.includes(pro)) continue
      const appointments = shown.filter((a) => a.date === day.date && a.professionalId === pro.id)
      const blocks = pro.id === '' ? [] : blocksOf(day.date, pro.id)
      const busy = g.busy.filter((b) => b.date === day.date && b.professionalId === pro.id)
      if (view === 'day' && plan.windows.length === 0 && appointments.length === 0 && blocks.filter((b) => b.professionalId !== null).length === 0) continue
      out.push({
        // A column's key is its place, not its date: moving to the next day (or week) updates the columns in place — their frame,
        // shading and free stretches — instead of tearing down and building every one again.
        key: view === 'week' ? `${weekday(day.date)}-${pro.id}` : pro.id,
        title: view === 'day' ? pro.name : divided ? names.get(pro)! : dateTitle(day.date),
        subtitle: view === 'week' ? undefined : plan.windows.length === 0 ? plan.label || 'Fechado' : undefined,
        ...(divided ? { group: dateTitle(day.date), label: `${pro.name}, ${dateTitle(day.date)}` } : {}),
        date: day.date,
        professionalId: pro.id,
        plan,
        appointments,
        blocks,
        busy,
      })
    }
  }
  return out
}

/** The professionals a week draws: `only` when it is one of the grid's (its id may be "", "Sem profissional"), else all of them. */
export function weekProfessionals(g: AgendaGrid, only?: string): Professional[] {
  const one = only === undefined ? undefined : g.professionals.find((p) => p.id === only)
  return one ? [one] : g.professionals
}

/**
 * What a narrow column of a divided week calls each professional: the first
 * name, with the last name's initial when two share it ("Ana L.", "Ana S.").
 */
export function shortNames(pros: Professional[]): Map<Professional, string> {
  const first = (p: Professional) => p.name.trim().split(/\s+/)[0] ?? p.name
  const out = new Map<Professional, string>()
  for (const p of pros) {
    const words = p.name.trim().split(/\s+/)
    const shared = pros.some((o) => o !== p && first(o) === first(p))
    out.set(p, shared && words.length > 1 ? `${words[0]} ${words[words.length - 1][0]}.` : first(p))
  }
  return out
}

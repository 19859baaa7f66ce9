// Pure layout of the agenda's time grid: where each appointment, block and
// stretch of shading sits in a column, and how overlapping items share it.
// Minutes are minutes from the date's midnight (the owner's wall clock).
import type { Schemas } from '@/lib/api/client'
import { fromMinutes, toMinutes } from '@/lib/dates'

export type Span = { start: number; end: number }

/** The hours the grid shows: every window, appointment and block of the columns, whole hours, 08:00–18:00 at least. */
export function axis(spans: Span[]): Span {
  let start = 8 * 60
  let end = 18 * 60
  for (const s of spans) {
    start = Math.min(start, s.start)
    end = Math.max(end, s.end)
  }
  return { start: Math.max(0, Math.floor(start / 60) * 60), end: Math.min(24 * 60, Math.ceil(end / 60) * 60) }
}

/** An item placed in a column: its lane (0-based) and how many lanes its overlapping group uses. */
export type Placed<T> = { item: T; span: Span; lane: number; lanes: number }

/**
 * Side by side, never on top: items whose spans overlap go into separate
 * lanes (first free lane, by start), and every item of a group of mutually
 * reaching items is as narrow as the group's widest moment needs.
 */
export function lanes<T>(items: { item: T; span: Span }[]): Placed<T>[] {
  const sorted = [...items].sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end)
  const out: Placed<T>[] = []
  let group: Placed<T>[] = []
  let groupEnd = -1
  let ends: number[] = [] // each lane's last end within the group
  const close = () => {
    for (const p of group) p.lanes = ends.length
    group = []
    ends = []
  }
  for (const it of sorted) {
    if (it.span.start >= groupEnd) close()
    let lane = ends.findIndex((e) => e <= it.span.start)
    if (lane < 0) {
      lane = ends.length
      ends.push(it.span.end)
    } else ends[lane] = it.span.end
    const p = { ...it, lane, lanes: 1 }
    group.push(p)
    out.push(p)
    groupEnd = Math.max(groupEnd, it.span.end)
  }
  close()
  return out
}

/** The stretches of the axis outside the working windows: before, between (a break: 'Pausa') and after. */
export function shading(windows: { start: string; end: string }[], range: Span): { span: Span; kind: 'outside' | 'break'; label: string }[] {
  const ws = windows.map((w) => ({ start: toMinutes(w.start), end: toMinutes(w.end) })).sort((a, b) => a.start - b.start)
  if (ws.length === 0) return [{ span: range, kind: 'outside', label: '' }]
  const out: { span: Span; kind: 'outside' | 'break'; label: string }[] = []
  if (ws[0].start > range.start) out.push({ span: { start: range.start, end: ws[0].start }, kind: 'outside', label: '' })
  for (let i = 1; i < ws.length; i++) {
    if (ws[i].start > ws[i - 1].end) out.push({ span: { start: ws[i - 1].end, end: ws[i].start }, kind: 'break', label: `Pausa · até ${fromMinutes(ws[i].start)}` })
  }
  const last = ws[ws.length - 1].end
  if (last < range.end) out.push({ span: { start: last, end: range.end }, kind: 'outside', label: '' })
  return out
}

/**
 * The starts of the free stretches a tap books: every step of the working
 * windows that no holding appointment (with its buffers) or block reaches.
 */
export function freeCells(windows: { start: string; end: string }[], taken: Span[], step = 30): number[] {
  const out: number[] = []
  for (const w of windows) {
    const end = toMinutes(w.end)
    for (let m = toMinutes(w.start); m < end; m += step) {
      const to = Math.min(m + step, end)
      if (!taken.some((t) => t.start < to && m < t.end)) out.push(m)
    }
  }
  return out
}

/** A y offset in the column (pixels) as the nearest step's minute, within the axis. */
export function minuteAt(y: number, range: Span, pxPerMinute: number, step = 15): number {
  const m = range.start + Math.round(y / pxPerMinute / step) * step
  return Math.min(Math.max(m, range.start), range.end - step)
}

/** A grid appointment (the contract's GridAppointment): its deposit's state when it has one to mark. */
export type GridAppointment = Schemas['GridAppointment']

import { expect, it } from 'vitest'
import type { AgendaGrid } from './api/get-agenda-grid'
import { gridColumns, shortNames, weekProfessionals } from './columns'
import type { GridAppointment } from './grid'

const pros = [
  { id: 'p1', name: 'Ana Lima', active: true },
  { id: 'p2', name: 'Bruno Reis', active: true },
  { id: 'p3', name: 'Ana Souza', active: true },
]
const open = { windows: [{ start: '08:00', end: '18:00' }], closed: '' as const, label: '' }
const off = { windows: [], closed: 'day_off' as const, label: 'Folga: Férias' }
const dates = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']
const appt = (id: string, professionalId: string, date: string, status = 'confirmed') => ({ id, professionalId, date, time: '09:00', status }) as GridAppointment

/** A week of three professionals: Bruno off on Tuesday, nobody on Sunday; one appointment each, one cancelled. */
const week: AgendaGrid = {
  today: '2026-11-24',
  now: '10:00',
  professionals: pros,
  days: dates.map((date) => ({
    date,
    columns: pros.map((p) => ({ professionalId: p.id, ...(date === '2026-11-29' || (date === '2026-11-24' && p.id === 'p2') ? off : open) })),
  })),
  appointments: [appt('a1', 'p1', '2026-11-23'), appt('a2', 'p2', '2026-11-25'), appt('a3', 'p3', '2026-11-27'), appt('a4', 'p3', '2026-11-27', 'cancelled')],
  blocks: [],
  busy: [{ professionalId: 'p2', date: '2026-11-24', start: '09:00', end: '10:00', title: '' }],
}

it('the week of everyone divides each date by professional, every one of them on every date, under the date', () => {
  const cols = gridColumns(week, 'week', false)
  expect(cols).toHaveLength(21)
  expect(cols.slice(0, 3).map((c) => [c.group, c.title, c.label, c.professionalId])).toEqual([
    ['Seg 23/11', 'Ana L.', 'Ana Lima, Seg 23/11', 'p1'],
    ['Seg 23/11', 'Bruno', 'Bruno Reis, Seg 23/11', 'p2'],
    ['Seg 23/11', 'Ana S.', 'Ana Souza, Seg 23/11', 'p3'],
  ])
  // A day off and a closed Sunday keep their columns, shaded by their plan.
  const tuesdayBruno = cols.find((c) => c.date === '2026-11-24' && c.professionalId === 'p2')!
  expect(tuesdayBruno.plan.label).toBe('Folga: Férias')
  expect(cols.filter((c) => c.date === '2026-11-29')).toHaveLength(3)
  // Each appointment is in its professional's column of its date; a cancelled one only when the filter asks for it.
  expect(cols.flatMap((c) => c.appointments.map((a) => `${a.id}@${c.date}/${c.professionalId}`))).toEqual(['a1@2026-11-23/p1', 'a2@2026-11-25/p2', 'a3@2026-11-27/p3'])
  expect(gridColumns(week, 'week', true).find((c) => c.date === '2026-11-27' && c.professionalId === 'p3')!.appointments.map((a) => a.id)).toEqual(['a3', 'a4'])
  // Keys are places (weekday and professional), unique in the week.
  expect(new Set(cols.map((c) => c.key)).size).toBe(21)
})

it('the week of one professional (a phone’s tab, or the only one) is a column per date, titled by the date', () => {
  const cols = gridColumns(week, 'week', false, 'p2')
  expect(cols.map((c) => c.title)).toEqual(['Seg 23/11', 'Ter 24/11', 'Qua 25/11', 'Qui 26/11', 'Sex 27/11', 'Sáb 28/11', 'Dom 29/11'])
  expect(cols.every((c) => c.professionalId === 'p2' && c.group === undefined)).toBe(true)
  expect(cols.flatMap((c) => c.appointments.map((a) => a.id))).toEqual(['a2'])
  const solo = { ...week, professionals: [pros[0]], days: week.days.map((d) => ({ ...d, columns: [d.columns[0]] })) }
  expect(gridColumns(solo, 'week', false).map((c) => c.group)).toEqual(Array(7).fill(undefined))
  // An id that is not the grid's draws everyone rather than nothing.
  expect(weekProfessionals(week, 'gone')).toHaveLength(3)
  expect(gridColumns(week, 'week', false, 'gone')).toHaveLength(21)
})

it('the day leaves out who neither works nor has anything that date', () => {
  const tuesday = { ...week, days: [week.days[1]], appointments: [] }
  expect(gridColumns(tuesday, 'day', false).map((c) => c.title)).toEqual(['Ana Lima', 'Ana Souza'])
})

it('short names are first names, with the last name’s initial when two share one', () => {
  const names = shortNames(pros)
  expect(pros.map((p) => names.get(p))).toEqual(['Ana L.', 'Bruno', 'Ana S.'])
})

it('a week can draw on its own the column of appointments whose professional was deleted (its id is "")', () => {
  const g: AgendaGrid = {
    ...week,
    professionals: [...pros, { id: '', name: 'Sem profissional', active: false }],
    days: week.days.map((d) => ({ ...d, columns: [...d.columns, { professionalId: '', windows: [], closed: '' as const, label: '' }] })),
    appointments: [...week.appointments, appt('a5', '', '2026-11-26')],
  }
  const cols = gridColumns(g, 'week', false, '')
  expect(cols).toHaveLength(7)
  expect(cols.flatMap((c) => c.appointments.map((a) => a.id))).toEqual(['a5'])
  expect(gridColumns(g, 'week', false)).toHaveLength(28)
})

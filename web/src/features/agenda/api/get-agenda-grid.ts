import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'
import { expandGroups, type GridAppointment } from '../grid'

export type GridQuery = operations['getAgendaGrid']['parameters']['query']

/** The grid as the page reads it: the server's compact groups expanded into appointments, each with its deposit's state. */
export type AgendaGrid = Omit<Schemas['AgendaGrid'], 'appointments'> & { appointments: GridAppointment[] }

export const getAgendaGrid = async (query: GridQuery): Promise<AgendaGrid> => {
  const g = await request('get', '/api/agenda/grid', { query, auth: true })
  return { ...g, appointments: expandGroups(g.appointments, g.deposits) }
}

export const agendaGridQueryOptions = (query: GridQuery) => queryOptions({ queryKey: queryKeys.appointments.grid(query), queryFn: () => getAgendaGrid(query) })

/** The time grid of a day or a week: columns with their hours, every appointment with its buffers, the blocks. */
export const useAgendaGrid = (query: GridQuery, { enabled = true }: { enabled?: boolean } = {}) =>
  // The previous range stays on screen while the next one loads: no flash of an empty grid.
  useQuery({ ...agendaGridQueryOptions(query), enabled, placeholderData: keepPreviousData })

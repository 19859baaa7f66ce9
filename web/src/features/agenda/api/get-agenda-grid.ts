import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import type { operations } from '@/lib/api/schema'

export type GridQuery = operations['getAgendaGrid']['parameters']['query']

/** The grid as the server sends it: columns, blocks and every appointment of the range, each with its deposit's state. */
export type AgendaGrid = Schemas['AgendaGrid']

export const getAgendaGrid = (query: GridQuery): Promise<AgendaGrid> => request('get', '/api/agenda/grid', { query, auth: true })

export const agendaGridQueryOptions = (query: GridQuery) => queryOptions({ queryKey: queryKeys.appointments.grid(query), queryFn: () => getAgendaGrid(query) })

/** The time grid of a day or a week: columns with their hours, every appointment with its buffers, the blocks. */
export const useAgendaGrid = (query: GridQuery, { enabled = true }: { enabled?: boolean } = {}) =>
  // The previous range stays on screen while the next one loads: no flash of an empty grid.
  useQuery({ ...agendaGridQueryOptions(query), enabled, placeholderData: keepPreviousData })

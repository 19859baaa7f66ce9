import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

export const getProfessionals = () => request('get', '/api/professionals', { auth: true })

export const professionalsQueryOptions = () => queryOptions({ queryKey: queryKeys.professionals, queryFn: getProfessionals })

/** The owner's team (the team screen, and filters and pickers elsewhere). */
export const useProfessionals = () => useQuery(professionalsQueryOptions())

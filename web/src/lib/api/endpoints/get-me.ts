import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

export const getMe = () => request('get', '/api/me', { auth: true })

export const meQueryOptions = () => queryOptions({ queryKey: queryKeys.me, queryFn: getMe })

/** The signed-in owner's name and e-mail. */
export const useMe = () => useQuery(meQueryOptions())

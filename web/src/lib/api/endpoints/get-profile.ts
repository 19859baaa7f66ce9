import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

export const getProfile = () => request('get', '/api/profile', { auth: true })

export const profileQueryOptions = () => queryOptions({ queryKey: queryKeys.profile, queryFn: getProfile })

/** The owner's business profile (shared by the profile, onboarding and preview screens). */
export const useProfile = () => useQuery(profileQueryOptions())

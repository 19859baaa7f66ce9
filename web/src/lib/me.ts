import { useQuery } from '@tanstack/react-query'
import { api, type Schemas } from './api/client'

export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => api<Schemas['Me']>('/api/me', { auth: true }) })
}

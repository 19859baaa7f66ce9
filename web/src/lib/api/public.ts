import { api, type Schemas } from './client'

export type PublicProfile = Schemas['PublicProfile']

export const fetchPublicProfile = (username: string) =>
  api<PublicProfile>(`/api/public/profiles/${encodeURIComponent(username)}`)

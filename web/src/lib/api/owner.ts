import { api, type Schemas } from './client'

// The owner's setup endpoints (one place so every screen shares query keys).
export type Profile = Schemas['Profile']
export type Service = Schemas['Service']
export type Professional = Schemas['Professional']
export type Week = Schemas['Week']
export type Day = Schemas['Day']
export type SetupStatus = Schemas['SetupStatus']

export const keys = {
  profile: ['profile'] as const,
  services: ['services'] as const,
  professionals: ['professionals'] as const,
  availability: ['availability'] as const,
  setup: ['setup-status'] as const,
  me: ['me'] as const,
}

export const fetchProfile = () => api<Profile>('/api/profile', { auth: true })
export const fetchServices = () => api<Service[]>('/api/services', { auth: true })
export const fetchProfessionals = () => api<Professional[]>('/api/professionals', { auth: true })
export const fetchAvailability = () => api<Week>('/api/availability', { auth: true })
export const fetchSetup = () => api<SetupStatus>('/api/setup-status', { auth: true })

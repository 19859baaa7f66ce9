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

export type Appointment = Schemas['Appointment']
export type Dashboard = Schemas['Dashboard']
export type Report = Schemas['Report']

export const dayKeys = {
  dashboard: ['dashboard'] as const,
  appointments: ['appointments'] as const,
  clients: ['clients'] as const,
  reports: ['reports'] as const,
}

export const fetchDashboard = () => api<Dashboard>('/api/dashboard', { auth: true })

/** Owner-facing status labels (SPEC §2: details dialog and detail page). */
export function statusLabel(status: string): string {
  return { confirmed: 'Confirmado', cancelled: 'Cancelado', completed: 'Concluído' }[status] ?? status
}

/** A phone as a WhatsApp link, adding Brazil's 55 when missing (SPEC §2 Agenda). */
export function whatsappFor(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  return `https://wa.me/${digits.startsWith('55') ? digits : `55${digits}`}`
}

import { api, type Schemas } from './client'

export type Booking = Schemas['Booking']
export type BookingInput = Schemas['BookingInput']
export type Cancellation = Schemas['Cancellation']

const base = (username: string) => `/api/public/profiles/${encodeURIComponent(username)}`
const qs = (p: Record<string, string>) => new URLSearchParams(p).toString()

export const fetchDays = (username: string, month: string, professional: string, service: string) =>
  api<{ days: string[] }>(`${base(username)}/days?${qs({ month, professional, service })}`)

export const fetchTimes = (username: string, date: string, professional: string, service: string) =>
  api<{ times: string[] }>(`${base(username)}/times?${qs({ date, professional, service })}`)

export const createBooking = (username: string, body: BookingInput) =>
  api<Booking>(`${base(username)}/bookings`, { method: 'POST', body })

export const fetchCancellation = (token: string) => api<Cancellation>(`/api/public/bookings/${encodeURIComponent(token)}`)
export const cancelBooking = (token: string) => api<Cancellation>(`/api/public/bookings/${encodeURIComponent(token)}/cancel`, { method: 'POST' })

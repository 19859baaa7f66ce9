import type { ButtonHTMLAttributes } from 'react'

// The waitlist pages' few helpers. They are their own rather than lib/format,
// lib/dates and components/ui/button on purpose: a module the waitlist chunk
// shared with the booking pages would be split out of theirs into a chunk of
// its own, and every public page would pay for the extra chunk (the page
// budget, scripts/budget.mjs). Same outputs as those: '30/11/2026',
// 'segunda-feira, 30 de novembro de 2026', 'R$ 150,00'.

/** "2026-11-30" → "30/11/2026". */
export const dayMonthYear = (iso: string) => iso.split('-').reverse().join('/')

/** "2026-11-30" → "segunda-feira, 30 de novembro de 2026" (the date as written, no zone). */
export const longDay = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('pt-BR', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })

/** Centavos as reais. */
export const reais = (cents: number) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' })

/** An instant's day and time in the browser's zone: "30/11/2026, 10:15". */
export const dayTime = (instant: string) => new Date(instant).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' })

/** The date n days after an ISO date. */
export const plusDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10)

/** A full-width button: 'primary' or 'danger'. */
export function WideButton({ tone = 'primary', className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: 'primary' | 'danger' }) {
  const color = tone === 'danger' ? 'bg-red-700 hover:bg-red-800' : 'bg-brand-700 hover:bg-brand-800'
  return <button className={`mt-3 inline-flex h-11 w-full items-center justify-center rounded-lg px-4 font-medium text-white disabled:opacity-50 ${color} ${className}`} {...props} />
}

import { formatInstant } from './dates'

/** Centavos as the UI shows money: "R$ 1.234,50" (plain spaces, as the spec writes it). */
export function formatBRL(cents: number): string {
  const negative = cents < 0
  const abs = Math.abs(Math.round(cents))
  const reais = Math.floor(abs / 100)
  const rest = String(abs % 100).padStart(2, '0')
  const grouped = String(reais).replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  return `${negative ? '-' : ''}R$ ${grouped},${rest}`
}

/** Reads a price typed as "21,90", "21.90", "1.234,50" or "21" into centavos; null if it is not a price. */
export function parseBRL(input: string): number | null {
  let s = input.trim().replace(/^R\$\s*/, '')
  if (!s) return null
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.')
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null
  return Math.round(Number(s) * 100)
}

/** Centavos as an editable field value: "21,90". */
export function centsToInput(cents: number): string {
  return (cents / 100).toFixed(2).replace('.', ',')
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean)
  if (parts.length === 0) return '?'
  return ((parts[0][0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase()
}

export const weekdays = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado']

const monthNames = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro']

/** "2026-11-30" → "30/11/2026". */
export function brDate(iso: string): string {
  const [y, m, d] = iso.split('-')
  return d && m && y ? `${d}/${m}/${y}` : iso
}

/** "2026-11-30" → "segunda-feira, 30 de novembro de 2026". */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number)
  if (!y || !m || !d) return iso
  const weekday = weekdays[new Date(Date.UTC(y, m - 1, d)).getUTCDay()].toLowerCase()
  return `${weekday}, ${d} de ${monthNames[m - 1]} de ${y}`
}

export function monthLabel(year: number, month: number): string {
  const name = monthNames[month - 1]
  return `${name[0].toUpperCase()}${name.slice(1)} de ${year}`
}

/** How long ago, as the notifications show it (SPEC §9). */
export function relativeDate(iso: string, now: Date = new Date()): string {
  const then = new Date(iso)
  const seconds = Math.floor((now.getTime() - then.getTime()) / 1000)
  if (seconds < 60) return 'Agora'
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return minutes === 1 ? 'há 1 minuto' : `há ${minutes} minutos`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return hours === 1 ? 'há 1 hora' : `há ${hours} horas`
  const days = Math.floor(hours / 24)
  if (days === 1) return 'Ontem'
  if (days <= 6) return `há ${days} dias`
  return formatInstant(iso)
}

/**
 * A price on the public pages: none when the owner hides prices (issue 43 §3,
 * the public answer then carries no priceCents), as the councils ask.
 */
export function priceText(cents?: number): string {
  return cents == null ? 'Valor informado no atendimento' : formatBRL(cents)
}

/** Whole reais as a chart's axis says them: 18000 → "R$ 18.000" (pt-BR thousands, no cents). */
export function formatBRLAxis(reais: number): string {
  return formatBRL(Math.round(reais) * 100).replace(/,00$/, '')
}

/** Every status an appointment can have (the API's enum). */
export const appointmentStatuses = ['confirmed', 'awaiting_deposit', 'cancelled', 'completed', 'no_show'] as const

/** awaiting_deposit: a booking whose Pix sinal is unpaid — it holds its time but is not confirmed (issue 39). */
const statusLabels: Record<string, string> = {
  confirmed: 'Confirmado',
  awaiting_deposit: 'Aguardando sinal',
  cancelled: 'Cancelado',
  completed: 'Concluído',
  no_show: 'Não compareceu',
}

/**
 * An appointment's status as every screen says it (SPEC §2: details dialog,
 * detail page, reports; the dashboard's lists too): the one place a status
 * becomes words. A status this app does not know yet never reaches the
 * screen raw.
 */
export function statusLabel(status: string): string {
  return statusLabels[status] ?? 'Outro status'
}

import { afterEach, describe, expect, it, vi } from 'vitest'
import { addDays, addMonths, formatInstant, fromISO, fromMinutes, pad, timeLocal, toISO, todayLocal, toMinutes, weekday } from './dates'

describe('ISO days', () => {
  it('add days across month and year ends, and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2026-11-25', 0)).toBe('2026-11-25')
    expect(addDays('2026-11-25', 40)).toBe('2027-01-04')
  })

  it('add months to the first day of the month', () => {
    expect(addMonths('2026-11-25', 1)).toBe('2026-12-01')
    expect(addMonths('2026-12-31', 1)).toBe('2027-01-01')
    expect(addMonths('2026-01-31', -1)).toBe('2025-12-01')
    expect(addMonths('2026-03-15', 12)).toBe('2027-03-01')
  })

  it('read the weekday of the day itself, whatever the zone', () => {
    expect(weekday('2026-11-22')).toBe(0) // a Sunday
    expect(weekday('2026-11-25')).toBe(3)
    expect(weekday('2027-01-02')).toBe(6)
    expect(toISO(fromISO('2026-12-31'))).toBe('2026-12-31')
  })
})

describe('the browser’s today', () => {
  afterEach(() => vi.useRealTimers())

  it('is the local day and time, two digits each', () => {
    const d = new Date(2027, 0, 5, 7, 3) // local 5 Jan 2027, 07:03
    expect(todayLocal(d)).toBe('2027-01-05')
    expect(timeLocal(d)).toBe('07:03')
    expect(todayLocal(new Date(2026, 11, 31, 23, 59))).toBe('2026-12-31')
    expect(timeLocal(new Date(2026, 11, 31, 23, 59))).toBe('23:59')
  })

  it('is this moment by default', () => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date(2026, 1, 28, 9, 30))
    expect(todayLocal()).toBe('2026-02-28')
    expect(timeLocal()).toBe('09:30')
  })
})

describe('times of day', () => {
  it('turn HH:MM into minutes and back', () => {
    expect(toMinutes('00:00')).toBe(0)
    expect(toMinutes('08:30')).toBe(510)
    expect(toMinutes('23:59')).toBe(1439)
    expect(fromMinutes(0)).toBe('00:00')
    expect(fromMinutes(510)).toBe('08:30')
    expect(fromMinutes(1439)).toBe('23:59')
    for (const t of ['06:05', '12:00', '19:45']) expect(fromMinutes(toMinutes(t))).toBe(t)
    expect(pad(7)).toBe('07')
    expect(pad(12)).toBe('12')
  })
})

describe('formatInstant', () => {
  // Brazil has had no daylight saving time since 2019: São Paulo is UTC−3 and Manaus UTC−4 all year.
  it('shows the day in the named zone', () => {
    expect(formatInstant('2026-11-25T14:30:00Z', 'America/Sao_Paulo')).toBe('25/11/2026')
    expect(formatInstant('2026-07-05T12:00:00Z', 'America/Manaus')).toBe('05/07/2026')
    // The same instant is still the old day, month and year in Brazil.
    expect(formatInstant('2027-01-01T02:30:00Z', 'America/Sao_Paulo')).toBe('31/12/2026')
    expect(formatInstant('2027-01-01T02:30:00Z', 'UTC')).toBe('01/01/2027')
    expect(formatInstant('2026-12-01T03:30:00Z', 'America/Sao_Paulo')).toBe('01/12/2026')
    expect(formatInstant('2026-12-01T03:30:00Z', 'America/Manaus')).toBe('30/11/2026')
    // An offset in the instant is honoured.
    expect(formatInstant('2026-12-31T23:30:00-03:00', 'America/Sao_Paulo')).toBe('31/12/2026')
    expect(formatInstant('2026-12-31T23:30:00-03:00', 'America/Noronha')).toBe('01/01/2027')
  })

  it('shows the day and time in the named zone', () => {
    expect(formatInstant('2026-11-25T14:30:00Z', 'America/Sao_Paulo', true)).toBe('25/11/2026, 11:30')
    expect(formatInstant('2026-11-25T14:30:00Z', 'America/Manaus', true)).toBe('25/11/2026, 10:30')
    // No summer time: January (summer) and July (winter) keep the same offset.
    expect(formatInstant('2026-01-15T15:00:00Z', 'America/Sao_Paulo', true)).toBe('15/01/2026, 12:00')
    expect(formatInstant('2026-07-15T15:00:00Z', 'America/Sao_Paulo', true)).toBe('15/07/2026, 12:00')
    expect(formatInstant('2027-01-01T03:59:00Z', 'America/Manaus', true)).toBe('31/12/2026, 23:59')
    expect(formatInstant('2027-01-01T04:00:00Z', 'America/Manaus', true)).toBe('01/01/2027, 00:00')
  })

  it('without a zone, shows what the browser shows', () => {
    for (const instant of ['2026-11-25T14:30:00Z', '2027-01-01T02:30:00Z', '2026-03-01T00:00:00-03:00']) {
      expect(formatInstant(instant)).toBe(new Date(instant).toLocaleDateString('pt-BR'))
      expect(formatInstant(instant, undefined, true)).toBe(new Date(instant).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' }))
    }
  })
})

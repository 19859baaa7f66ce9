import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { dayOffSchema, holidaySchema, rulesSchema } from './schedule-forms'

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message])

describe('rulesSchema', () => {
  it('sends numbers, with the duration step as 0', () => {
    expect(z.parse(rulesSchema, { slotStep: '0', minNoticeMinutes: '120', bookingWindowDays: ' 90 ', cancelCutoffHours: '24' })).toEqual({
      slotStep: 0,
      minNoticeMinutes: 120,
      bookingWindowDays: 90,
      cancelCutoffHours: 24,
    })
  })
  it.each([
    [{ slotStep: '20' }, 'slotStep', 'Escolha o intervalo entre horários.'],
    [{ bookingWindowDays: '0' }, 'bookingWindowDays', 'Informe de 1 a 365 dias.'],
    [{ bookingWindowDays: '366' }, 'bookingWindowDays', 'Informe de 1 a 365 dias.'],
    [{ cancelCutoffHours: '-1' }, 'cancelCutoffHours', 'Informe de 0 a 720 horas.'],
    [{ cancelCutoffHours: '1,5' }, 'cancelCutoffHours', 'Informe de 0 a 720 horas.'],
  ])('%o is refused at %s', (change, field, message) => {
    const ok = { slotStep: '30', minNoticeMinutes: '0', bookingWindowDays: '90', cancelCutoffHours: '0' }
    expect(issues(z.safeParse(rulesSchema, { ...ok, ...change }))).toEqual([[field, message]])
  })
})

describe('dayOffSchema', () => {
  it('is one date when the end is left out, for the whole practice when nobody is chosen', () => {
    expect(z.parse(dayOffSchema, { professionalId: '', start: '2027-01-04', end: '', reason: ' Férias ' })).toEqual({
      professionalId: null,
      start: '2027-01-04',
      end: '2027-01-04',
      reason: 'Férias',
    })
  })
  it('refuses a missing start and an end before the start', () => {
    expect(issues(z.safeParse(dayOffSchema, { professionalId: 'p1', start: '', end: '', reason: '' }))).toEqual([['start', 'Informe a data de início.']])
    expect(issues(z.safeParse(dayOffSchema, { professionalId: 'p1', start: '2027-01-10', end: '2027-01-04', reason: '' }))).toEqual([
      ['end', 'O fim deve ser no mesmo dia ou depois do início.'],
    ])
  })
})

describe('holidaySchema', () => {
  it('reads DD/MM', () => {
    expect(z.parse(holidaySchema, { name: ' Aniversário de São Paulo ', date: '25/01' })).toEqual({ name: 'Aniversário de São Paulo', day: 25, month: 1 })
    expect(z.parse(holidaySchema, { name: 'Bissexto', date: '29/02' })).toEqual({ name: 'Bissexto', day: 29, month: 2 })
  })
  it.each(['31/04', '00/01', '12/13', '25-01', ''])('refuses %s', (date) => {
    expect(issues(z.safeParse(holidaySchema, { name: 'X', date }))).toEqual([['date', 'Informe o dia e o mês, como 25/01.']])
  })
})

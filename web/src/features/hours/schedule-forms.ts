import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { optionalText, requiredText, wholeNumber, type FormSchema } from '@/lib/form'

/** The booking rules as the form holds them (selects and number fields, as strings). */
export type RulesFields = { slotStep: string; minNoticeMinutes: string; bookingWindowDays: string; cancelCutoffHours: string }

export const rulesFields = (r: Schemas['ScheduleRules']): RulesFields => ({
  slotStep: String(r.slotStep),
  minNoticeMinutes: String(r.minNoticeMinutes),
  bookingWindowDays: String(r.bookingWindowDays),
  cancelCutoffHours: String(r.cancelCutoffHours),
})

const between = (min: number, max: number, message: string) => z.pipe(wholeNumber(message, min), z.number().check(z.maximum(max, message)))

/** The booking rules' form; its output is the body the rules mutation sends. */
export const rulesSchema: FormSchema<RulesFields, Schemas['ScheduleRules']> = z.object({
  slotStep: z.pipe(
    z.enum(['0', '15', '30', '60'], 'Escolha o intervalo entre horários.'),
    z.transform((s) => Number(s) as 0 | 15 | 30 | 60),
  ),
  minNoticeMinutes: between(0, 43200, 'Escolha a antecedência mínima.'),
  bookingWindowDays: between(1, 365, 'Informe de 1 a 365 dias.'),
  cancelCutoffHours: between(0, 720, 'Informe de 0 a 720 horas.'),
})

export type DayOffFields = { professionalId: string; start: string; end: string; reason: string }
export const blankDayOff: DayOffFields = { professionalId: '', start: '', end: '', reason: '' }

const isoDate = (message: string) => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, message))

/** A day off's form: one date or a range, for the practice ('') or one professional. */
export const dayOffSchema: FormSchema<DayOffFields, Schemas['DayOffInput']> = z
  .pipe(
    z.object({
      professionalId: z.string(),
      start: isoDate('Informe a data de início.'),
      end: z.string(),
      reason: optionalText().check(z.maxLength(120, 'Use no máximo 120 caracteres.')),
    }),
    z.transform((v) => ({ professionalId: v.professionalId || null, start: v.start, end: v.end || v.start, reason: v.reason })),
  )
  .check(
    z.refine((v) => v.end >= v.start, { message: 'O fim deve ser no mesmo dia ou depois do início.', path: ['end'] }),
  )

export type HolidayFields = { name: string; date: string }
export const blankHoliday: HolidayFields = { name: '', date: '' }

/** An owner's own holiday (state or municipal), every year on the day and month of date (DD/MM). */
export const holidaySchema: FormSchema<HolidayFields, Schemas['HolidayInput']> = z.pipe(
  z.object({
    name: requiredText('Informe o nome do feriado.').check(z.maxLength(80, 'Use no máximo 80 caracteres.')),
    date: z.string().check(
      z.trim(),
      z.refine((s) => {
        const m = /^(\d{1,2})\/(\d{1,2})$/.exec(s)
        if (!m) return false
        const day = Number(m[1])
        const month = Number(m[2])
        return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(2024, month, 0)).getUTCDate()
      }, 'Informe o dia e o mês, como 25/01.'),
    ),
  }),
  z.transform(({ name, date }) => {
    const [day, month] = date.split('/').map(Number)
    return { name, day, month }
  }),
)

import * as z from 'zod/mini'
import { fromMinutes, toMinutes } from '@/lib/dates'
import { optionalText, type FormSchema } from '@/lib/form'

/** What the 'Bloquear horário' form holds. professionalId '' is the whole practice. */
export type BlockFields = { professionalId: string; date: string; wholeDay: boolean; start: string; end: string; reason: string }

/** The block as the form sends it: a range of the date, or the whole day (a day off). */
export type BlockOut = { professionalId: string | null; date: string; wholeDay: boolean; start: string; end: string; reason: string }

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/

export const blockSchema: FormSchema<BlockFields, BlockOut> = z.pipe(
  z
    .object({
      professionalId: z.string(),
      date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Informe a data.')),
      wholeDay: z.boolean(),
      start: z.string(),
      end: z.string(),
      reason: optionalText().check(z.maxLength(120, 'O motivo deve ter no máximo 120 caracteres.')),
    })
    .check(
      z.refine((v) => v.wholeDay || hhmm.test(v.start), { message: 'Informe o início (HH:MM).', path: ['start'] }),
      z.refine((v) => v.wholeDay || (hhmm.test(v.end) && v.end > v.start), { message: 'O fim deve ser depois do início.', path: ['end'] }),
    ),
  z.transform((v) => ({ ...v, professionalId: v.professionalId === '' ? null : v.professionalId })),
)

export const blockFields = (date: string, professionalId = '', start = ''): BlockFields => ({ professionalId, date, wholeDay: false, start, end: start ? hourAfter(start) : '', reason: '' })

/** An hour after HH:MM, at most 23:59. */
function hourAfter(hhmm: string): string {
  return fromMinutes(Math.min(toMinutes(hhmm) + 60, 23 * 60 + 59))
}

import * as z from 'zod/mini'
import type { BusyCalendarInput } from '@/lib/api/endpoints/calendars'
import type { FormSchema } from '@/lib/form'

/** What the 'Agenda pessoal' form holds for one professional. */
export type BusyCalendarFields = { url: string; showTitles: boolean; allDay: 'busy' | 'ignore'; onFailure: 'keep' | 'drop' }

const address = /^(https?|webcal):\/\/[^\s/?#]+/i

/**
 * The form's schema: the address is required the first time; once
 * connected, an empty one keeps the stored address (it is never shown back).
 */
export const busyCalendarSchema = (connected: boolean): FormSchema<BusyCalendarFields, BusyCalendarInput> =>
  z.object({
    url: z.string().check(
      z.trim(),
      z.refine((v) => v !== '' || connected, { message: 'Cole o endereço iCal da agenda.' }),
      z.refine((v) => v === '' || address.test(v), { message: 'Endereço inválido: cole o endereço iCal completo, que começa com https://.' }),
    ),
    showTitles: z.boolean(),
    allDay: z.enum(['busy', 'ignore']),
    onFailure: z.enum(['keep', 'drop']),
  })

import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { weekdays } from '@/lib/format'
import type { FormSchema } from '@/lib/form'

type Day = Schemas['Day']

/**
 * A week as the hours editor holds it, checked before it is sent: every open
 * day has windows that end after they start and do not overlap, in the
 * server's words (internal/hours). The first problem is the form's error.
 */
export const weekSchema = z.array(z.custom<Day>()).check(
  z.superRefine((days, ctx) => {
    for (const d of days) {
      if (!d.enabled) continue
      const name = weekdays[d.dayOfWeek]
      const ws = [...d.windows].sort((a, b) => a.start.localeCompare(b.start))
      for (let i = 0; i < ws.length; i++) {
        const w = ws[i]
        if (!/^\d{2}:\d{2}$/.test(w.start) || !/^\d{2}:\d{2}$/.test(w.end)) {
          ctx.issues.push({ code: 'custom', input: days, message: `Informe os horários de ${name} no formato HH:MM.` })
          return
        }
        if (w.end <= w.start) {
          ctx.issues.push({ code: 'custom', input: days, message: `O horário de término deve ser depois do início (${name}).` })
          return
        }
        if (i > 0 && w.start < ws[i - 1].end) {
          ctx.issues.push({ code: 'custom', input: days, message: `Os períodos de ${name} se sobrepõem: cada um deve começar depois que o anterior termina.` })
          return
        }
      }
    }
  }),
)

/** The hours form: the seven days, sent as they are. */
export type WeekFields = { days: Day[] }
export const weekFormSchema: FormSchema<WeekFields, WeekFields> = z.object({ days: weekSchema })

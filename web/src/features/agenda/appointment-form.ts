import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { emailText, optionalText, phoneText, requiredText, type FormSchema } from '@/lib/form'

/** What the owner's appointment form holds, as typed. */
export type AppointmentFields = {
  clientName: string
  clientPhone: string
  clientEmail: string
  professionalId: string
  serviceId: string
  date: string
  time: string
  notes: string
  notifyClient: boolean
  /** "Cobrar sinal": the appointment waits for the service's deposit (issue 29). */
  chargeDeposit: boolean
  repeat: '' | 'week' | '2weeks' | 'month'
  sessions: string
}


const contactMessage = 'Informe o telefone ou o e-mail do cliente.'

/** The owner's appointment form: the output is the body of POST /api/appointments (without outsideHours, which the dialog adds). */
export const appointmentSchema: FormSchema<AppointmentFields, Schemas['OwnerAppointmentInput']> = z.pipe(
  z
    .object({
      clientName: requiredText('Informe o nome do cliente.'),
      clientPhone: phoneText(),
      clientEmail: emailText('E-mail inválido.'),
      professionalId: requiredText('Escolha o profissional.'),
      serviceId: requiredText('Escolha o serviço.'),
      date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Informe a data.')),
      time: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Informe o horário (HH:MM).')),
      notes: optionalText(),
      notifyClient: z.boolean(),
      chargeDeposit: z.boolean(),
      repeat: z.enum(['', 'week', '2weeks', 'month']),
      sessions: z.string(),
    })
    .check(
      z.refine((v) => v.clientPhone.trim() !== '' || v.clientEmail.trim() !== '', { message: contactMessage, path: ['clientPhone'] }),
      z.refine((v) => v.repeat === '' || (/^\d+$/.test(v.sessions) && Number(v.sessions) >= 2 && Number(v.sessions) <= 52), {
        message: 'Informe de 2 a 52 sessões.',
        path: ['sessions'],
      }),
    ),
  z.transform(({ repeat, sessions, chargeDeposit, ...body }) => {
    const sent = chargeDeposit && repeat === '' ? { ...body, chargeDeposit } : body
    return repeat === '' ? sent : { ...sent, repeat: { every: repeat, count: Number(sessions) } }
  }),
)

/** The form's starting values: the row the owner clicked (date, time, professional), or blank. */
export function appointmentFields(at: { date: string; time?: string; professionalId?: string }): AppointmentFields {
  return {
    clientName: '',
    clientPhone: '',
    clientEmail: '',
    professionalId: at.professionalId ?? '',
    serviceId: '',
    date: at.date,
    time: at.time ?? '',
    notes: '',
    notifyClient: false,
    chargeDeposit: false,
    repeat: '',
    sessions: '8',
  }
}

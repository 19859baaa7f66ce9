import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { emailText, optionalText, requiredText, type FormSchema } from '@/lib/form'

/** What the client types on the booking form (the picks of service, professional, day and time live in the URL). */
export type ClientFields = { name: string; email: string; phone: string; notes: string }
type ClientBody = Pick<Schemas['BookingInput'], 'clientName' | 'clientEmail' | 'clientPhone' | 'notes'>

export const blankClient: ClientFields = { name: '', email: '', phone: '', notes: '' }

/**
 * The client's part of a booking, in the spec's two readings: the form at
 * /agende/:username/form needs a phone, the /booking page an e-mail. Its
 * output is the client half of the body the booking mutation sends.
 */
export function clientSchema(variant: 'form' | 'booking'): FormSchema<ClientFields, ClientBody> {
  return z.pipe(
    z.object({
      name: requiredText('Informe seu nome completo.'),
      email: emailText('Informe um e-mail válido.', variant === 'booking'),
      phone: variant === 'form' ? requiredText('Informe seu telefone.') : optionalText(),
      notes: optionalText(),
    }),
    z.transform((c) => ({ clientName: c.name, clientEmail: c.email, clientPhone: c.phone, notes: c.notes })),
  )
}

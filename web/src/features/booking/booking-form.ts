import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { isCpf } from '@/lib/cpf'
import { emailText, optionalText, requiredText, type FormSchema } from '@/lib/form'

/** What the client types on the booking form (the picks of service, professional, day and time live in the URL). */
export type ClientFields = { name: string; email: string; phone: string; notes: string; cpf: string }
type ClientBody = Pick<Schemas['BookingInput'], 'clientName' | 'clientEmail' | 'clientPhone' | 'notes' | 'clientCpf'>

export const blankClient: ClientFields = { name: '', email: '', phone: '', notes: '', cpf: '' }

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
      // Asked only when the practice issues the Receita Saúde's receipts (DetailsStep); optional.
      cpf: z.string().check(
        z.trim(),
        z.refine((v) => v === '' || isCpf(v), 'CPF inválido: confira os 11 dígitos.'),
      ),
    }),
    z.transform((c) => ({ clientName: c.name, clientEmail: c.email, clientPhone: c.phone, notes: c.notes, ...(c.cpf ? { clientCpf: c.cpf } : {}) })),
  )
}

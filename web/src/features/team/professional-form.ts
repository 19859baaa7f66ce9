import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { emailText, requiredText, type FormSchema } from '@/lib/form'

export type ProfessionalFields = { name: string; specialization: string; email: string }

export const professionalFields = (p?: Schemas['Professional'] | null): ProfessionalFields => ({
  name: p?.name ?? '',
  specialization: p?.specialization ?? '',
  email: p?.email ?? '',
})

/** The professional form; its output is the body the create and update mutations send. */
export const professionalSchema: FormSchema<ProfessionalFields, Schemas['ProfessionalInput']> = z.object({
  name: requiredText('Informe o nome.').check(z.maxLength(120, 'Use no máximo 120 caracteres.')),
  specialization: requiredText('Informe a especialização.').check(z.maxLength(120, 'Use no máximo 120 caracteres.')),
  email: emailText('Informe um e-mail válido.'),
})

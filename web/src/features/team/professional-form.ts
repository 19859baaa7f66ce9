import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { emailText, requiredText, type FormSchema } from '@/lib/form'

export type ProfessionalFields = { name: string; specialization: string; email: string; council: string; councilUf: string; councilNumber: string }

/**
 * The health councils a professional may name (issue 43 §3), as the server
 * accepts them (internal/team/council.go): initials as each council writes
 * them, and the profession it registers.
 */
export const councils: [string, string][] = [
  ['CRP', 'Psicologia'],
  ['CRN', 'Nutrição'],
  ['CREFITO', 'Fisioterapia e Terapia Ocupacional'],
  ['CRFa', 'Fonoaudiologia'],
  ['CRO', 'Odontologia'],
  ['CREF', 'Educação Física'],
  ['CRM', 'Medicina'],
  ['COREN', 'Enfermagem'],
  ['CRF', 'Farmácia'],
  ['CRBM', 'Biomedicina'],
  ['CRMV', 'Medicina Veterinária'],
]

/** A registration number as the councils print it: digits with / . - or a space, and a category's letters after a separator (3/12345-F). */
const councilNumber = /^[0-9](?:[0-9./ -]|[-/ ][A-Za-z]{1,3}\b)*$/

export const professionalFields = (p?: Schemas['Professional'] | null): ProfessionalFields => ({
  name: p?.name ?? '',
  specialization: p?.specialization ?? '',
  email: p?.email ?? '',
  council: p?.council ?? '',
  councilUf: p?.councilUf ?? '',
  councilNumber: p?.councilNumber ?? '',
})

/** The professional form; its output is the body the create and update mutations send (the council's three fields go together). */
export const professionalSchema: FormSchema<ProfessionalFields, Schemas['ProfessionalInput']> = z
  .object({
    name: requiredText('Informe o nome.').check(z.maxLength(120, 'Use no máximo 120 caracteres.')),
    specialization: requiredText('Informe a especialização.').check(z.maxLength(120, 'Use no máximo 120 caracteres.')),
    email: emailText('Informe um e-mail válido.'),
    council: z.string(),
    councilUf: z.string(),
    councilNumber: z.string().check(
      z.trim(),
      z.maxLength(20, 'O número de registro deve ter no máximo 20 caracteres.'),
      z.refine((s) => s === '' || councilNumber.test(s), 'Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345.'),
    ),
  })
  .check(
    z.refine((f) => f.council !== '' || f.councilNumber === '', { message: 'Escolha o conselho do número de registro.', path: ['council'] }),
    z.refine((f) => f.council === '' || f.councilNumber !== '', { message: 'Informe o número de registro no conselho.', path: ['councilNumber'] }),
    z.refine((f) => f.council === '' || f.councilUf !== '', { message: 'Escolha a UF do registro no conselho.', path: ['councilUf'] }),
  )

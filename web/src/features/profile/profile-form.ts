import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { emailText, optionalText, phoneText, requiredText, type FormSchema } from '@/lib/form'

type Profile = Schemas['Profile']

export type ProfileFields = {
  name: string
  email: string
  contactEmail: string
  publicUsername: string
  area: string
  description: string
  phone: string
  timeZone: string
  instagram: string
  whatsapp: string
  linkedin: string
  website: string
}

export const profileFields = (p: Profile): ProfileFields => ({
  name: p.name,
  email: p.email,
  contactEmail: p.contactEmail,
  publicUsername: p.publicUsername ?? '',
  area: p.area,
  description: p.description,
  phone: p.phone,
  timeZone: p.timeZone,
  instagram: p.instagram,
  whatsapp: p.whatsapp,
  linkedin: p.linkedin,
  website: p.website,
})

/** The profile form; its output is the body the profile mutation sends (the server normalises links and phones). */
export const profileSchema: FormSchema<ProfileFields, Schemas['ProfileInput']> = z.object({
  name: requiredText('Informe seu nome.'),
  email: emailText('Informe um e-mail válido.', true),
  contactEmail: emailText('Informe um e-mail de contato válido ou deixe o campo em branco.'),
  publicUsername: z.string().check(
    z.trim(),
    z.refine((s) => s === '' || /^[a-zA-Z0-9._-]{3,30}$/.test(s), 'Use de 3 a 30 letras, números, ponto, hífen ou sublinhado.'),
  ),
  area: requiredText('Informe sua área de atuação.'),
  description: optionalText(),
  phone: optionalText(),
  timeZone: z.string(),
  instagram: optionalText(),
  whatsapp: phoneText('WhatsApp inválido. Use DDD + número, como (11) 98888-7777.'),
  linkedin: optionalText(),
  website: optionalText(),
})

export type DeleteFields = { password: string; word: string }
export const blankDelete: DeleteFields = { password: '', word: '' }

/** The account deletion's confirmation (SPEC §5): the word first, then the password. */
export const deleteSchema: FormSchema<DeleteFields, Schemas['DeleteAccountRequest']> = z.pipe(
  z.object({
    word: z.string().check(z.refine((s) => s === 'EXCLUIR', 'Digite EXCLUIR, em letras maiúsculas.')),
    password: z.string().check(z.trim(), z.minLength(1, 'Informe sua senha.')),
  }),
  z.transform((v) => ({ password: v.password, confirmation: v.word })),
)

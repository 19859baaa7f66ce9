import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { emailText, optionalText, phoneText, requiredText, sessionLink, type FormSchema } from '@/lib/form'

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
  street: string
  number: string
  complement: string
  district: string
  city: string
  state: string
  cep: string
  roomLink: string
}

export { ufs } from '@/lib/ufs'

/** A CEP as it is typed, shown as 00000-000 (at most 8 digits kept). */
export function formatCep(raw: string): string {
  const d = raw.replace(/\D/g, '').slice(0, 8)
  return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d
}

/** The CEP's 8 digits, or null when it does not have exactly 8. */
export function cepDigits(raw: string): string | null {
  const d = raw.replace(/\D/g, '')
  return d.length === 8 && /^[\d\s.-]*$/.test(raw) ? d : null
}

export const cepMessage = 'CEP inválido. Use os 8 números, como 01001-000.'
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
  street: p.address.street,
  number: p.address.number,
  complement: p.address.complement,
  district: p.address.district,
  city: p.address.city,
  state: p.address.state,
  cep: p.address.cep,
  roomLink: p.roomLink,
})

/** The profile form; its output is the body the profile mutation sends (the server normalises links and phones). */
export const profileSchema: FormSchema<ProfileFields, Schemas['ProfileInput']> = z.pipe(z.object({
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
  street: optionalText(),
  number: optionalText(),
  complement: optionalText(),
  district: optionalText(),
  city: optionalText(),
  state: z.string(),
  cep: z.string().check(z.trim(), z.refine((s) => s === '' || cepDigits(s) !== null, cepMessage)),
  roomLink: sessionLink(),
}), z.transform(({ street, number, complement, district, city, state, cep, ...rest }) => ({
  ...rest,
  address: { street, number, complement, district, city, state, cep },
})))

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

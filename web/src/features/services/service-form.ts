import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { centsToInput } from '@/lib/format'
import { brlCents, optionalText, requiredText, sessionLink, wholeNumber, type FormSchema } from '@/lib/form'

/** What the service form holds: the strings as typed, and the chosen professionals. */
export type ServiceFields = { name: string; description: string; duration: string; price: string; bufferBefore: string; bufferAfter: string; professionalIds: string[]; online: boolean; onlineLink: string }

// Minutes kept free before or after: blank is none.
const buffer = z.pipe(
  z.string().check(z.trim(), z.regex(/^\d{0,3}$/, 'Informe de 0 a 240 minutos.')),
  z.transform((s) => (s === '' ? 0 : Number.parseInt(s, 10))),
).check(z.refine((n) => n <= 240, 'Informe de 0 a 240 minutos.'))

/** The service form's rules; its output is the body the create and update mutations send. */
export const serviceSchema: FormSchema<ServiceFields, Schemas['ServiceInput']> = z.pipe(
  z.object({
    name: requiredText('Informe o nome do serviço.'),
    description: optionalText(),
    duration: wholeNumber('Informe a duração em minutos inteiros (mínimo 1).'),
    price: brlCents('Informe o preço em reais, como 150,00.'),
    bufferBefore: buffer,
    bufferAfter: buffer,
    professionalIds: z.array(z.string()),
    online: z.boolean(),
    onlineLink: sessionLink(),
  }),
  z.transform(({ price, ...rest }) => ({ ...rest, priceCents: price })),
)

/** The form's starting values: blank for a new service, the service's own to edit it. */
export function serviceFields(service?: Schemas['Service'] | null): ServiceFields {
  if (!service) return { name: '', description: '', duration: '60', price: '0,00', bufferBefore: '0', bufferAfter: '0', professionalIds: [], online: false, onlineLink: '' }
  return {
    name: service.name,
    description: service.description ?? '',
    duration: String(service.duration),
    price: centsToInput(service.priceCents),
    bufferBefore: String(service.bufferBefore),
    bufferAfter: String(service.bufferAfter),
    professionalIds: service.professionalIds,
    online: service.online,
    onlineLink: service.onlineLink,
  }
}

import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { centsToInput } from '@/lib/format'
import { brlCents, optionalText, requiredText, wholeNumber, type FormSchema } from '@/lib/form'

/** What the service form holds: the strings as typed, and the chosen professionals. */
export type ServiceFields = { name: string; description: string; duration: string; price: string; professionalIds: string[] }

/** The service form's rules; its output is the body the create and update mutations send. */
export const serviceSchema: FormSchema<ServiceFields, Schemas['ServiceInput']> = z.pipe(
  z.object({
    name: requiredText('Informe o nome do serviço.'),
    description: optionalText(),
    duration: wholeNumber('Informe a duração em minutos inteiros (mínimo 1).'),
    price: brlCents('Informe o preço em reais, como 150,00.'),
    professionalIds: z.array(z.string()),
  }),
  z.transform(({ price, ...rest }) => ({ ...rest, priceCents: price })),
)

/** The form's starting values: blank for a new service, the service's own to edit it. */
export function serviceFields(service?: Schemas['Service'] | null): ServiceFields {
  if (!service) return { name: '', description: '', duration: '60', price: '0,00', professionalIds: [] }
  return {
    name: service.name,
    description: service.description ?? '',
    duration: String(service.duration),
    price: centsToInput(service.priceCents),
    professionalIds: service.professionalIds,
  }
}

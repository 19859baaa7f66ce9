import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import { centsToInput, parseBRL } from '@/lib/format'
import { brlCents, optionalText, requiredText, sessionLink, wholeNumber, type FormSchema } from '@/lib/form'

/** What the service form holds: the strings as typed, and the chosen professionals. */
export type ServiceFields = {
  name: string
  description: string
  duration: string
  price: string
  bufferBefore: string
  bufferAfter: string
  professionalIds: string[]
  online: boolean
  onlineLink: string
  /** The deposit (sinal): none, a fixed amount in reais, or a percentage of the price. */
  depositKind: 'none' | 'fixed' | 'percent'
  depositValue: string
  depositHold: string
  depositKeepLate: boolean
  depositKeepNoShow: boolean
}

const depositKinds = ['none', 'fixed', 'percent'] as const

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
    depositKind: z.enum(depositKinds),
    depositValue: z.string().check(z.trim()),
    depositHold: z.string().check(z.trim(), z.regex(/^\d{1,4}$/, 'Informe o prazo em minutos, de 10 a 1440.')),
    depositKeepLate: z.boolean(),
    depositKeepNoShow: z.boolean(),
  }).check(
    z.refine((f) => f.depositKind !== 'fixed' || (parseBRL(f.depositValue) ?? 0) > 0, { message: 'Informe o valor do sinal em reais, como 30,00.', path: ['depositValue'] }),
    z.refine((f) => f.depositKind !== 'percent' || /^\d{1,3}$/.test(f.depositValue), { message: 'Informe a porcentagem do sinal, de 1 a 100.', path: ['depositValue'] }),
  ),
  z.transform(({ price, depositKind, depositValue, depositHold, depositKeepLate, depositKeepNoShow, ...rest }) => ({
    ...rest,
    priceCents: price,
    deposit: {
      kind: depositKind,
      value: depositKind === 'fixed' ? (parseBRL(depositValue) ?? 0) : depositKind === 'percent' ? Number.parseInt(depositValue, 10) : 0,
      holdMinutes: Number.parseInt(depositHold, 10),
      keepOnLateCancel: depositKeepLate,
      keepOnNoShow: depositKeepNoShow,
    },
  })),
)

/** The form's starting values: blank for a new service, the service's own to edit it. */
export function serviceFields(service?: Schemas['Service'] | null): ServiceFields {
  if (!service)
    return {
      name: '',
      description: '',
      duration: '60',
      price: '0,00',
      bufferBefore: '0',
      bufferAfter: '0',
      professionalIds: [],
      online: false,
      onlineLink: '',
      depositKind: 'none',
      depositValue: '',
      depositHold: '30',
      depositKeepLate: true,
      depositKeepNoShow: true,
    }
  const d = service.deposit
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
    depositKind: d.kind,
    depositValue: d.kind === 'fixed' ? centsToInput(d.value) : d.kind === 'percent' ? String(d.value) : '',
    depositHold: String(d.holdMinutes),
    depositKeepLate: d.keepOnLateCancel,
    depositKeepNoShow: d.keepOnNoShow,
  }
}

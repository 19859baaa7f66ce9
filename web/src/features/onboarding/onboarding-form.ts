import * as z from 'zod/mini'
import { weekOf } from '@/components/hours-editor'
import type { Schemas } from '@/lib/api/client'
import { parseBRL } from '@/lib/format'
import { optionalText, requiredText, type FormSchema } from '@/lib/form'
import { weekSchema } from '@/lib/hours-form'

type Day = Schemas['Day']

export type ServiceDraft = { name: string; duration: string; price: string; description: string }
export const newService = (): ServiceDraft => ({ name: '', duration: '60', price: '0', description: '' })

export type OnboardingFields = { name: string; area: string; publicUsername: string; description: string; services: ServiceDraft[]; days: Day[]; who: 'me' | 'team'; team: string }

// Onboarding defaults (SPEC §3): Monday to Friday 09:00–17:00 on, weekends 09:00–13:00 off.
export const blankOnboarding = (): OnboardingFields => ({
  name: '',
  area: '',
  publicUsername: '',
  description: '',
  services: [newService()],
  who: 'me',
  team: '',
  days: weekOf(Array.from({ length: 7 }, (_, d) => (d >= 1 && d <= 5 ? { enabled: true, start: '09:00', end: '17:00' } : { enabled: false, start: '09:00', end: '13:00' }))),
})

/** The fields of each step, checked before moving on. */
export const stepFields = {
  1: ['name', 'area', 'publicUsername'],
  2: ['services.0.name', 'services.0.duration'],
} as const

const draft = z.object({ name: optionalText(), duration: optionalText(), price: optionalText(), description: optionalText() })

/**
 * The three steps as one form (SPEC §5): profile fields required, the first
 * service needs a name and a duration, other services without them are
 * skipped by the server, a blank price is 0; the week's windows as the hours
 * screen checks them. Its output is the onboarding body.
 */
export const onboardingSchema: FormSchema<OnboardingFields, Schemas['OnboardingInput']> = z.pipe(
  z.object({
    name: requiredText('Informe seu nome profissional.'),
    area: requiredText('Informe sua área de atuação.'),
    publicUsername: requiredText('Escolha um nome de usuário.'),
    description: optionalText(),
    services: z.array(draft).check(
      z.superRefine((services, ctx) => {
        const first = services[0]
        if (!first || first.name === '') ctx.issues.push({ code: 'custom', input: services, path: [0, 'name'], message: 'Informe o nome do serviço.' })
        if (!first || first.duration === '') ctx.issues.push({ code: 'custom', input: services, path: [0, 'duration'], message: 'Informe a duração.' })
      }),
    ),
    days: weekSchema,
    who: z.enum(['me', 'team']),
    team: z.string(),
  }).check(
    z.refine((v) => v.who === 'me' || teamNames(v.team).length > 0, { message: 'Escreva o nome de quem atende, um por linha.', path: ['team'] }),
  ),
  z.transform((v) => ({
    name: v.name,
    area: v.area,
    publicUsername: v.publicUsername,
    description: v.description,
    services: v.services.map((s) => ({
      name: s.name,
      duration: s.duration ? Number.parseInt(s.duration, 10) : null,
      priceCents: parseBRL(s.price) ?? 0,
      description: s.description,
    })),
    days: v.days,
    team: v.who === 'me' ? { mode: 'me' as const } : { mode: 'team' as const, names: teamNames(v.team) },
  })),
)

/** The team's names, one a line, blank lines left out. */
export const teamNames = (text: string) =>
  text
    .split('\n')
    .map((n) => n.trim())
    .filter(Boolean)

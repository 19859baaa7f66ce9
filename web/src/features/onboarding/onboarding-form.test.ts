import { expect, it } from 'vitest'
import { blankOnboarding, onboardingSchema } from './onboarding-form'

const filled = () => ({ ...blankOnboarding(), name: 'Ana Souza', area: 'Psicologia', publicUsername: 'ana', services: [{ name: 'Consulta', duration: '50', price: '150,00', description: '' }] })

it('answers "Quem atende?": only me by default, or the team one name a line', () => {
  expect(onboardingSchema.parse(filled()).team).toEqual({ mode: 'me' })
  expect(onboardingSchema.parse({ ...filled(), who: 'team', team: ' Ana Souza \n\n Bruno Lima ' }).team).toEqual({ mode: 'team', names: ['Ana Souza', 'Bruno Lima'] })
  const empty = onboardingSchema.safeParse({ ...filled(), who: 'team', team: '  \n ' })
  expect(empty.success).toBe(false)
  expect(empty.error?.issues[0].message).toBe('Escreva o nome de quem atende, um por linha.')
})

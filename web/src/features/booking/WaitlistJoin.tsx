import { Link } from 'react-router'
import type { BookingSteps } from './use-booking'

/**
 * "Entrar na lista de espera" (issue 28, point 3), once a service and a
 * professional are chosen: a full day cannot be picked above, and a day may
 * have no time left. The form is its own page, so the booking page's first
 * visit does not download it (the public page budget).
 */
export function WaitlistJoin({ username, steps }: { username: string; steps: BookingSteps }) {
  if (!steps.ready) return null
  const q = new URLSearchParams({ service: steps.service!.id, professional: steps.professional!.id, date: steps.date })
  return (
    <p className="mt-4 text-center text-sm">
      Não achou horário?{' '}
      <Link to={`/agende/${username}/lista-de-espera?${q}`} className="font-medium text-brand-700 underline dark:text-brand-200">
        Entrar na lista de espera
      </Link>
    </p>
  )
}

import { Link } from 'react-router'
import type { BookingSteps } from './use-booking'

/** What the client already typed on the booking form, carried to the waitlist form in the page's history state (never its address). */
export type Typed = { name: string; email: string; phone: string }

/**
 * "Entrar na lista de espera" (issue 28, point 3), once a service and a
 * professional are chosen: from a full day ("lotado") for that date, or
 * below the form from the chosen date (else the month's first full or free
 * day, never a closed one). The client's name, e-mail and phone go along.
 * The form is its own page, so the booking page's first visit does not
 * download it (the public page budget).
 */
export function WaitlistJoin({ username, steps, typed, lead = 'Não achou horário?' }: { username: string; steps: BookingSteps; typed: Typed; lead?: string }) {
  if (!steps.ready) return null
  const q = new URLSearchParams({ service: steps.service!.id, professional: steps.professional!.id, date: steps.waitlistDate })
  return (
    <p className="mt-4 text-center text-sm">
      {lead ? `${lead} ` : null}
      <Link to={`/agende/${username}/lista-de-espera?${q}`} state={typed} className="font-medium text-brand-700 underline dark:text-brand-200">
        Entrar na lista de espera
      </Link>
    </p>
  )
}

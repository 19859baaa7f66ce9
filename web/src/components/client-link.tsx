import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { cn } from '@/lib/utils'

/**
 * The client's page of an appointment's client: its address is the
 * appointment's id, which the server reads as that appointment's client
 * (issue 39: an address is logged and kept in the browser's history, so it
 * never carries the phone or e-mail). An appointment with neither contact
 * (a client whose data was erased) has no page.
 */
export function clientPath(a: { id: string; clientPhone?: string; clientEmail?: string }): string | null {
  return a.clientPhone || a.clientEmail ? clientPathOf(a.id) : null
}

/** The client's page by their opaque reference (`ref` from /api/clients, or any of their appointments' id). */
export const clientPathOf = (ref: string) => `/clients/${encodeURIComponent(ref)}`

/** Whether a client page's address is an opaque reference, not a phone or e-mail as older links carried. */
export const isClientRef = (ref: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref)

/** A client's name that opens their page, wherever it is shown; plain text when they have none. */
export function ClientLink({
  appointment,
  className,
  children,
}: {
  appointment: { id: string; clientName: string; clientPhone?: string; clientEmail?: string }
  className?: string
  children?: ReactNode
}) {
  const to = clientPath(appointment)
  const text = children ?? appointment.clientName
  if (!to) return <span className={className}>{text}</span>
  return (
    <Link to={to} className={cn('hover:underline focus-visible:underline', className)}>
      {text}
    </Link>
  )
}

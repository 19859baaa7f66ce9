import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { cn } from '@/lib/utils'

/**
 * The client's page of an appointment's client. A client is identified by
 * the stored phone, else the e-mail in lower case (the server's client key);
 * an appointment with neither (a client whose data was erased) has no page.
 */
export function clientPath(a: { clientPhone?: string; clientEmail?: string }): string | null {
  const key = a.clientPhone || (a.clientEmail ?? '').toLowerCase()
  return key ? clientPathOf(key) : null
}

/** The client's page by their client key (the server's identifier). */
export const clientPathOf = (key: string) => `/clients/${encodeURIComponent(key)}`

/** A client's name that opens their page, wherever it is shown; plain text when they have none. */
export function ClientLink({
  appointment,
  className,
  children,
}: {
  appointment: { clientName: string; clientPhone?: string; clientEmail?: string }
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

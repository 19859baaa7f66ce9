import { ApiError, NetworkError } from './api/client'

/** The message to show for a failed call: the server's own pt-BR text, or a fallback. */
export function messageOf(e: unknown, fallback: string): string {
  if (e instanceof ApiError) return e.message || fallback
  if (e instanceof NetworkError) return e.message
  return fallback
}

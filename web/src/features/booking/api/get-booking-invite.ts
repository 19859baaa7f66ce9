import { urlOf, type PathWith } from '@/lib/api/client'

const path = '/api/public/bookings/{token}/invite.ics' satisfies PathWith<'get'>

/**
 * Where the confirmation card downloads the booking's calendar invite: the
 * server's .ics, the same file the confirmation e-mail attaches, by the
 * client's private token from the booking's answer. A plain link rather
 * than a fetch: it needs no session, and the server's Content-Disposition
 * names the file.
 */
export const bookingInviteUrl = (token: string) => urlOf(path, { path: { token } })

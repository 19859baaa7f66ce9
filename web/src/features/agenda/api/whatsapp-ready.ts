import { useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'
import { useIsProfessional } from '@/lib/auth'
import { useWhatsApp } from '../../profile/api/whatsapp'

/**
 * Whether the owner's WhatsApp Business (Cloud API) can carry the client's
 * confirmation now: connected and its confirmation template APPROVED by Meta
 * — then the server sends it to a client with a phone when the owner asks to
 * notify (as after a public booking). Unknown (loading, error) is no. A
 * professional signed in as themself (issue 43) may not read the owner's
 * connection: the server answers them the one fact the forms need.
 */
export function useWhatsAppConfirms(): boolean {
  const professional = useIsProfessional()
  const wa = useWhatsApp(!professional)
  const team = useQuery({ queryKey: queryKeys.whatsappConfirms, queryFn: () => request('get', '/api/whatsapp/confirms', { auth: true }), enabled: professional })
  if (professional) return team.data?.confirms ?? false
  const st = wa.data
  return !!st?.connected && st.templates.some((t) => t.kind === 'confirmation' && t.status === 'APPROVED')
}
/** The words saying how the notice goes: e-mail, WhatsApp or both; '' when it cannot go. */
export function noticeChannel(email: string, phone: string, whatsApp: boolean): '' | 'e-mail' | 'WhatsApp' | 'e-mail e WhatsApp' {
  const byEmail = email.trim() !== ''
  const byWhatsApp = whatsApp && phone.trim() !== ''
  if (byEmail && byWhatsApp) return 'e-mail e WhatsApp'
  if (byEmail) return 'e-mail'
  return byWhatsApp ? 'WhatsApp' : ''
}

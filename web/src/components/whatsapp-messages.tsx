import { MessageCircle } from 'lucide-react'
import { toast } from 'sonner'
import { errorMessage } from '@/lib/api/client'
import { createAnswerLinks } from '@/lib/api/endpoints/create-answer-links'
import { createClientLink } from '@/lib/api/endpoints/create-client-link'
import { useMessageTemplates, type MessageTemplates } from '@/lib/api/endpoints/message-templates'
import { useProfile } from '@/lib/api/endpoints/get-profile'
import { useServices } from '@/lib/api/endpoints/get-services'
import { answerWords, clientLinkWord, fillMessage, placeOf, whatsappFor, type MessageFacts } from '@/lib/whatsapp'

type Kind = keyof MessageTemplates

const labels: Record<Kind, string> = {
  confirmation: 'Enviar confirmação',
  reminder: 'Enviar lembrete',
  reschedule: 'Avisar remarcação',
}

/**
 * One-tap WhatsApp messages to a client: each button opens wa.me with the
 * client's number (55 added) and the owner's template filled for this
 * appointment; the owner only presses send. A template with {link_cliente}
 * asks the server for a fresh private link to this appointment first, one
 * with {link_confirmar}, {link_remarcar} or {link_cancelar} for the
 * client's one-tap answers.
 */
export function WhatsAppMessages({
  appointment: a,
  kinds = ['confirmation', 'reminder', 'reschedule'],
}: {
  appointment: Omit<MessageFacts, 'link' | 'clientLink' | 'place'> & { id: string; clientPhone: string; serviceId?: string | null }
  kinds?: Kind[]
}) {
  const templates = useMessageTemplates()
  const profile = useProfile()
  const services = useServices()
  // No buttons for a contact that is not a phone (an e-mail only, or a number the rule does not read). Nor before
  // the profile and the services have answered: a message composed before would go without the address, the room
  // or the public link (a failed answer leaves those out, as they would be without it).
  if (!whatsappFor(a.clientPhone) || !templates.data || profile.isPending || services.isPending) return null
  // {endereco} and {link_sessao}: the address, or the online service's link (or the owner's room).
  const facts = { ...a, place: placeOf(profile.data?.addressLine ?? '', profile.data?.roomLink ?? '', services.data?.find((s) => s.id === a.serviceId)) }
  const link = profile.data?.publicUsername ? `${window.location.origin}/agende/${profile.data.publicUsername}` : window.location.origin
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Mensagens por WhatsApp">
      {kinds.map((k) =>
        needsServer(templates.data[k]) ? (
          <button key={k} type="button" onClick={() => void sendWithServerLinks(facts, templates.data[k], link)} aria-label={`${labels[k]} pelo WhatsApp`} className={buttonClass}>
            <MessageCircle className="size-4" aria-hidden /> {labels[k]}
          </button>
        ) : (
          <a
            key={k}
            href={whatsappFor(a.clientPhone, fillMessage(templates.data[k], { ...facts, link }))}
            target="_blank"
            rel="noreferrer"
            aria-label={`${labels[k]} pelo WhatsApp`}
            className={buttonClass}
          >
            <MessageCircle className="size-4" aria-hidden /> {labels[k]}
          </a>
        ),
      )}
    </div>
  )
}

const buttonClass =
  'inline-flex h-8 items-center gap-1 rounded-md border border-green-600 px-3 text-sm font-medium text-green-800 hover:bg-green-50 dark:border-green-500 dark:text-green-200 dark:hover:bg-green-900/30'

const needsServer = (template: string) => template.includes(clientLinkWord) || answerWords.some((w) => template.includes(w))

/**
 * Opens WhatsApp with a template whose {link_cliente} is a fresh private link
 * and whose answer placeholders are fresh one-tap links. The window opens in
 * the tap itself (a window opened after the request would be a blocked
 * pop-up) and gets its address when the links arrive.
 */
async function sendWithServerLinks(a: Omit<MessageFacts, 'link' | 'clientLink'> & { id: string; clientPhone: string }, template: string, link: string) {
  const win = window.open('', '_blank')
  try {
    const clientLink = template.includes(clientLinkWord) ? (await createClientLink(a.id)).url : undefined
    const answers = answerWords.some((w) => template.includes(w)) ? await createAnswerLinks(a.id) : undefined
    const href = whatsappFor(a.clientPhone, fillMessage(template, { ...a, link, clientLink, answers })) ?? ''
    if (win) {
      win.opener = null
      win.location.href = href
    } else {
      window.location.href = href
    }
  } catch (e) {
    win?.close()
    toast.error('Erro', { description: errorMessage(e, 'Não foi possível criar os links do cliente. Tente novamente.') })
  }
}

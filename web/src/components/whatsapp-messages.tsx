import { MessageCircle } from 'lucide-react'
import { useMessageTemplates, type MessageTemplates } from '@/lib/api/endpoints/message-templates'
import { useProfile } from '@/lib/api/endpoints/get-profile'
import { fillMessage, whatsappFor, type MessageFacts } from '@/lib/whatsapp'

type Kind = keyof MessageTemplates

const labels: Record<Kind, string> = {
  confirmation: 'Enviar confirmação',
  reminder: 'Enviar lembrete',
  reschedule: 'Avisar remarcação',
}

/**
 * One-tap WhatsApp messages to a client: each button opens wa.me with the
 * client's number (55 added) and the owner's template filled for this
 * appointment; the owner only presses send.
 */
export function WhatsAppMessages({ appointment: a, kinds = ['confirmation', 'reminder', 'reschedule'] }: { appointment: Omit<MessageFacts, 'link'> & { clientPhone: string }; kinds?: Kind[] }) {
  const templates = useMessageTemplates()
  const profile = useProfile()
  // No buttons for a contact that is not a phone (an e-mail only, or a number the rule does not read).
  if (!whatsappFor(a.clientPhone) || !templates.data) return null
  const link = profile.data?.publicUsername ? `${window.location.origin}/agende/${profile.data.publicUsername}` : window.location.origin
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Mensagens por WhatsApp">
      {kinds.map((k) => (
        <a
          key={k}
          href={whatsappFor(a.clientPhone, fillMessage(templates.data[k], { ...a, link }))}
          target="_blank"
          rel="noreferrer"
          aria-label={`${labels[k]} pelo WhatsApp`}
          className="inline-flex h-8 items-center gap-1 rounded-md border border-green-600 px-3 text-sm font-medium text-green-800 hover:bg-green-50 dark:border-green-500 dark:text-green-200 dark:hover:bg-green-900/30"
        >
          <MessageCircle className="size-4" aria-hidden /> {labels[k]}
        </a>
      ))}
    </div>
  )
}

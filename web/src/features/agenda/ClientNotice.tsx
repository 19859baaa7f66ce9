import { MessageCircle } from 'lucide-react'
import { WhatsAppMessages } from '@/components/whatsapp-messages'
import { type Schemas } from '@/lib/api/client'
import { longDate } from '@/lib/format'
import { whatsappFor } from '@/lib/whatsapp'

/** What carried a client's notice, as the server answered it ('' none asked, 'none' none could leave). */
export type NoticeChannel = Schemas['NoticeChannel']

/** The appointment a notice was about, as every screen that tells a client has it. */
export type Noticed = Pick<Schemas['Appointment'], 'id' | 'clientName' | 'clientPhone' | 'serviceName' | 'professionalName' | 'date' | 'time'> & {
  serviceId?: string | null
}

/** The words for the channel the server says carried the notice: never "avisado" when nothing left. */
export function noticeText(channel: NoticeChannel): string {
  switch (channel) {
    case 'email':
      return 'Avisamos por e-mail.'
    case 'whatsapp':
      return 'Avisamos por WhatsApp.'
    case 'email_whatsapp':
      return 'Avisamos por e-mail e WhatsApp.'
    case 'push':
      return 'Avisamos por notificação no celular do cliente.'
    case 'none':
      return 'Não conseguimos avisar automaticamente.'
    default:
      return 'Sem aviso ao cliente.'
  }
}

/** The cancellation text the owner sends by hand when no automatic message could leave. */
export function cancellationText(a: Pick<Noticed, 'clientName' | 'serviceName' | 'professionalName' | 'date' | 'time'>): string {
  return `Olá, ${a.clientName}! Precisamos cancelar o seu horário de ${a.serviceName} com ${a.professionalName} em ${longDate(a.date)} às ${a.time}. Pedimos desculpas. Responda esta mensagem para marcarmos outro horário.`
}

/**
 * After a cancellation or a move the owner asked to tell the client of: the
 * channel that told them, or — when none could — the message ready to send
 * on WhatsApp in one tap: the cancellation for a cancellation, the owner's
 * rescheduling template for a move (with the appointment where it now is).
 */
export function ClientNotice({ kind, channel, appointment: a }: { kind: 'cancel' | 'move'; channel: NoticeChannel; appointment: Noticed }) {
  // A notification alone may go unseen: the message to send by hand stays at hand.
  const byHand = channel === 'none' || channel === 'push'
  const wa = byHand && kind === 'cancel' ? whatsappFor(a.clientPhone, cancellationText(a)) : undefined
  return (
    <div className="grid gap-2" role="status">
      <span className="text-xs font-semibold text-brand-800 dark:text-brand-200">{noticeText(channel)}</span>
      {!byHand ? null : !whatsappFor(a.clientPhone) ? (
        <span className="text-xs text-stone-700 dark:text-stone-300">Sem WhatsApp cadastrado: avise o cliente por telefone.</span>
      ) : kind === 'cancel' ? (
        <a href={wa} target="_blank" rel="noreferrer" className={waButton}>
          <MessageCircle className="size-4" aria-hidden /> Enviar o cancelamento pelo WhatsApp
        </a>
      ) : (
        <WhatsAppMessages appointment={a} kinds={['reschedule']} />
      )}
    </div>
  )
}

const waButton =
  'inline-flex h-8 w-fit items-center gap-1 rounded-md border border-green-600 px-3 text-sm font-medium text-green-800 hover:bg-green-50 dark:border-green-500 dark:text-green-200 dark:hover:bg-green-900/30'

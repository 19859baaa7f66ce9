import { useWhatsAppDeliveries, type WhatsAppDelivery } from './api/whatsapp-deliveries'

const kind: Record<string, string> = { confirmation: 'Confirmação', reminder: 'Lembrete', cancellation: 'Aviso de cancelamento' }

function says(d: WhatsAppDelivery): { text: string; bad: boolean } {
  switch (d.state) {
    case 'sent':
      return { text: 'WhatsApp enviado', bad: false }
    case 'delivered':
      return { text: 'WhatsApp entregue', bad: false }
    case 'read':
      return { text: 'WhatsApp lido', bad: false }
    case 'dropped':
      return { text: 'WhatsApp não enviado: o agendamento mudou antes', bad: false }
    case 'queued':
      return { text: 'WhatsApp na fila', bad: false }
    case 'failed':
    case 'unknown':
      return { text: d.emailed ? 'WhatsApp não entregue — enviado por e-mail' : 'WhatsApp não entregue', bad: true }
    default:
      return { text: 'WhatsApp sendo enviado', bad: false }
  }
}

/**
 * The appointment's messages sent from the owner's WhatsApp Business number
 * (confirmation, reminders) and how far each got, as Meta's delivery
 * webhooks told: nothing when none was sent that way.
 */
export function WhatsAppDeliveries({ appointmentId }: { appointmentId: string }) {
  const { data } = useWhatsAppDeliveries(appointmentId)
  if (!data?.length) return null
  return (
    <ul className="grid gap-1 text-sm" aria-label="Mensagens automáticas de WhatsApp">
      {data.map((d, i) => {
        const s = says(d)
        return (
          <li key={i} className="flex flex-wrap justify-between gap-2">
            <span className="text-stone-600 dark:text-stone-400">{kind[d.kind] ?? d.kind}</span>
            <span className={s.bad ? 'font-medium text-red-700 dark:text-red-400' : 'text-stone-700 dark:text-stone-300'} title={s.bad && d.error ? d.error : undefined}>
              {s.text}
            </span>
          </li>
        )
      })}
    </ul>
  )
}

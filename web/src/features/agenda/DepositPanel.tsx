import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api/client'
import { depositLabel, sourceLabel, useDeposit, useDepositReceived, useDepositReturned } from '@/lib/api/endpoints/deposits'
import { formatInstant } from '@/lib/dates'
import { formatBRL } from '@/lib/format'
import { whatsappFor } from '@/lib/whatsapp'

/**
 * The appointment's deposit (issue 29): its amount and state, the deadline
 * while pending, every change of it, and its actions — 'Sinal recebido',
 * 'Registrar devolução do sinal' (an action reads as one; the states keep
 * their names: 'Sinal devolvido'). Nothing when the
 * appointment asked for none.
 */
export function DepositPanel({ appointmentId, clientName = '', clientPhone = '' }: { appointmentId: string; clientName?: string; clientPhone?: string }) {
  const { data: d } = useDeposit(appointmentId)
  const received = useDepositReceived()
  const returned = useDepositReturned()
  if (!d) return null
  const giveBack = () =>
    returned.mutate(appointmentId, {
      onSuccess: () => toast.success('Devolução registrada', { description: 'O sinal consta como devolvido, com a data de hoje.' }),
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível registrar a devolução.') }),
    })
  const confirm = () =>
    received.mutate(appointmentId, {
      onSuccess: () => toast.success('Sinal recebido', { description: 'Agendamento confirmado; enviamos a confirmação ao cliente.' }),
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível confirmar o sinal.') }),
    })
  return (
    <section aria-label="Sinal" className="grid gap-2 rounded-xl border border-amber-300 p-3 text-sm dark:border-amber-800">
      <p>
        <span className="font-semibold">{depositLabel[d.state] ?? d.state}</span> · {formatBRL(d.amountCents)}
        {d.state === 'pending' ? ` · pagar até ${formatInstant(d.expiresAt, undefined, true)}` : null}
      </p>
      {d.latePayment ? <p className="text-red-700 dark:text-red-300">Pagamento chegou depois do prazo: devolva ao cliente.</p> : null}
      <ol className="grid gap-1 text-xs text-stone-600 dark:text-stone-400" aria-label="Histórico do sinal">
        {d.history.map((h) => (
          <li key={`${h.state}-${h.at}`}>
            {formatInstant(h.at, undefined, true)} — {depositLabel[h.state] ?? h.state} ({sourceLabel(h.source)})
          </li>
        ))}
      </ol>
      {d.returnedAt ? <p>Devolvido em {formatInstant(d.returnedAt)}</p> : null}
      {d.state === 'pending' ? (
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" onClick={confirm} disabled={received.isPending}>
            Sinal recebido
          </Button>
          {d.copyPaste && whatsappFor(clientPhone) ? (
            <Button asChild variant="outline" size="sm">
              <a
                href={whatsappFor(clientPhone, `Olá, ${clientName.split(' ')[0]}! Para confirmar seu horário, pague o sinal de ${formatBRL(d.amountCents)} via Pix até ${formatInstant(d.expiresAt, undefined, true)}. Pix Copia e Cola: ${d.copyPaste}`)}
                target="_blank"
                rel="noreferrer"
              >
                Enviar Pix pelo WhatsApp
              </a>
            </Button>
          ) : null}
        </div>
      ) : null}
      {d.state === 'to_return' || d.state === 'paid' || d.state === 'retained' ? (
        <div>
          <Button type="button" size="sm" variant={d.state === 'to_return' ? 'default' : 'outline'} onClick={giveBack} disabled={returned.isPending}>
            Registrar devolução do sinal
          </Button>
        </div>
      ) : null}
    </section>
  )
}

import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api/client'
import { useSetPayment, type Payment } from '@/lib/api/endpoints/payments'
import { formatInstant } from '@/lib/dates'
import { formatBRL } from '@/lib/format'

/** The state of a session's payment in words: what the toggle's neighbour says. */
export function paymentState(p: Payment): string {
  if (p.byDeposit) return 'Pago pelo sinal'
  if (p.paid) return p.paidAt ? `Pago em ${formatInstant(p.paidAt)}` : 'Pago'
  const deposit = p.depositCents > 0 ? ` (sinal de ${formatBRL(p.depositCents)} recebido)` : ''
  return `A receber: ${formatBRL(p.dueCents)}${deposit}`
}

/**
 * 'Pago' / 'A receber' in one tap (issue 43 §4): a toggle button, pressed
 * when paid, beside its state in words — never a color alone. A session its
 * deposit paid whole says so and has nothing to toggle; one not attended
 * (ahead, cancelled, no-show) shows nothing.
 */
export function PaymentToggle({ payment: p, compact = false }: { payment: Payment; compact?: boolean }) {
  const set = useSetPayment()
  if (!p.billable || p.priceCents === 0) return null
  const toggle = () =>
    set.mutate(
      { id: p.appointmentId, paid: !p.paid },
      {
        onSuccess: (after) => toast.success(after.paid ? 'Marcado como pago' : 'Marcado como a receber'),
        onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível mudar o pagamento.') }),
      },
    )
  return (
    <div className={compact ? 'flex flex-wrap items-center gap-2 text-xs' : 'flex flex-wrap items-center gap-2 text-sm'} aria-label="Pagamento" role="group">
      {p.byDeposit ? null : (
        <Button type="button" size="sm" variant={p.paid ? 'default' : 'outline'} aria-pressed={p.paid} onClick={toggle} disabled={set.isPending}>
          {p.paid ? <span aria-hidden>✓</span> : null}
          Pago
        </Button>
      )}
      <span>{paymentState(p)}</span>
    </div>
  )
}

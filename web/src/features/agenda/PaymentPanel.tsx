import { PaymentToggle } from '@/components/payment-toggle'
import { usePayment } from '@/lib/api/endpoints/payments'

/**
 * The appointment's 'Pago' / 'A receber' (issue 43 §4), once it was held
 * (completed, or confirmed with its start passed); nothing before.
 */
export function PaymentPanel({ appointmentId }: { appointmentId: string }) {
  const { data: p } = usePayment(appointmentId)
  if (!p || !p.billable || p.priceCents === 0) return null
  return (
    <section aria-label="Pagamento" className="grid gap-2 rounded-xl border border-stone-200 p-3 text-sm dark:border-stone-800">
      <p className="font-semibold">Pagamento</p>
      <PaymentToggle payment={p} />
    </section>
  )
}

import { FlaskConical } from 'lucide-react'
import { useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { errorMessage } from '@/lib/api/client'
import { usePayTestCheckout } from './api/pay-test-checkout'

/** The local test provider's checkout: no real charge, says so plainly. */
export default function TestCheckoutPage() {
  const { id = '' } = useParams()
  const navigate = useNavigate()
  const payment = usePayTestCheckout()
  const busy = payment.isPending || payment.isSuccess
  function pay() {
    payment.mutate(id, {
      onSuccess: () => navigate('/subscription-success', { replace: true }),
      onError: (e) => toast.error('Erro na assinatura', { description: errorMessage(e, 'Ocorreu um erro ao processar sua assinatura. Tente novamente.') }),
    })
  }
  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <FlaskConical className="size-5 text-amber-600" aria-hidden /> Pagamento de teste
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
            Este é um pagamento de teste: nenhuma cobrança real será feita. Em produção, configure o Stripe para receber pagamentos.
          </p>
          <p className="text-sm">
            Plano Premium · <strong>R$ 21,90/mês</strong>
          </p>
          <Button size="lg" onClick={pay} disabled={busy}>
            {busy ? 'Processando...' : 'Confirmar pagamento de teste'}
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}

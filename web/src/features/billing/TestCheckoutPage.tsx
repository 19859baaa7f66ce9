import { useQueryClient } from '@tanstack/react-query'
import { FlaskConical } from 'lucide-react'
import { useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { api } from '@/lib/api/client'
import { subscriptionKey } from '@/lib/api/billing'

/** The local test provider's checkout: no real charge, says so plainly. */
export default function TestCheckoutPage() {
  const { id = '' } = useParams()
  const navigate = useNavigate()
  const qc = useQueryClient()
  const [busy, setBusy] = useState(false)
  async function pay() {
    setBusy(true)
    try {
      await api(`/api/billing/test-checkout/${encodeURIComponent(id)}/pay`, { method: 'POST', auth: true })
      await qc.invalidateQueries({ queryKey: subscriptionKey })
      navigate('/subscription-success', { replace: true })
    } catch {
      toast.error('Erro na assinatura', { description: 'Ocorreu um erro ao processar sua assinatura. Tente novamente.' })
      setBusy(false)
    }
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

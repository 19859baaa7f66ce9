import { Check } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Navigate, useNavigate, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { CancelSubscription } from '@/components/cancel-subscription'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'
import { useSubscription } from '@/lib/api/endpoints/get-subscription'
import { useAuth } from '@/lib/auth'
import { useOpenPortal } from './api/open-portal'
import { useStartCheckout } from './api/start-checkout'
import { go, planFeatures } from './plan'

export default function SubscribePage() {
  const { status } = useAuth()
  const { data, isLoading } = useSubscription()
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const checkout = useStartCheckout()
  const portal = useOpenPortal()
  const busy = checkout.isPending
  const [cancelled, setCancelled] = useState(false)
  useEffect(() => {
    if (!cancelled) return
    const t = setTimeout(() => navigate('/dashboard'), 2000)
    return () => clearTimeout(t)
  }, [cancelled, navigate])

  if (isLoading || !data) return <PageSpinner />
  // Already subscribed: back to the dashboard, unless managing the plan.
  if (data.subscribed && params.get('manage') !== '1' && !cancelled) return <Navigate to="/dashboard" replace />

  function subscribe() {
    if (status !== 'signed-in') {
      toast.error('Erro na assinatura', { description: 'Você precisa estar logado para assinar.' })
      return
    }
    checkout.mutate(undefined, {
      onSuccess: ({ url }) => go(url),
      onError: (e) => toast.error('Erro na assinatura', { description: errorMessage(e, 'Ocorreu um erro ao processar sua assinatura. Tente novamente.') }),
    })
  }
  function manage() {
    portal.mutate(undefined, {
      onSuccess: ({ url }) => go(url),
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível abrir o portal de gerenciamento.') }),
    })
  }

  return (
    <div className="mx-auto grid max-w-xl gap-6">
      <BackLink />
      <Card>
        <CardHeader>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-200">Assinatura</p>
          <CardTitle className="text-3xl">
            R$ 21,90<span className="text-base font-normal text-stone-600 dark:text-stone-400">/mês</span>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-5">
          <ul className="grid gap-2 text-sm">
            {planFeatures.map((f) => (
              <li key={f} className="flex items-center gap-2">
                <Check className="size-4 text-brand-600" aria-hidden /> {f}
              </li>
            ))}
          </ul>
          {cancelled ? (
            <p role="status" className="font-medium">
              Cancelamento processado
            </p>
          ) : data.subscribed ? (
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={manage}>
                Gerenciar assinatura
              </Button>
              <CancelSubscription onCancelled={() => setCancelled(true)} />
            </div>
          ) : (
            <Button size="lg" onClick={subscribe} disabled={busy}>
              {busy ? 'Abrindo pagamento...' : 'Assinar agora'}
            </Button>
          )}
          <p className="text-center text-sm text-stone-600 dark:text-stone-400">Cancele a qualquer momento. Sem compromisso.</p>
        </CardContent>
      </Card>
    </div>
  )
}

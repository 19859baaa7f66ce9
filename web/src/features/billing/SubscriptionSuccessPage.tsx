import { CheckCircle2 } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { useSubscription } from '@/lib/api/endpoints/get-subscription'
import { formatInstant } from '@/lib/dates'

const features = ['Agendamentos ilimitados', 'Lembretes por e-mail', 'Múltiplos profissionais', 'Relatórios com gráficos']

export default function SubscriptionSuccessPage() {
  const { data, isLoading } = useSubscription()
  if (isLoading) return <PageSpinner />
  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardContent className="grid gap-4 pt-6 text-center">
          <CheckCircle2 className="mx-auto size-12 text-green-600" aria-hidden />
          <h1 className="text-2xl font-bold">Assinatura ativada!</h1>
          <p>
            Plano <strong>{data?.subscriptionTier ?? 'Premium'}</strong>
            {data?.subscriptionEnd ? ` · válido até ${formatInstant(data.subscriptionEnd)}` : ''}
          </p>
          <ul className="grid gap-1 text-sm">
            {features.map((f) => (
              <li key={f}>✓ {f}</li>
            ))}
          </ul>
          <Button asChild size="lg">
            <Link to="/dashboard">Ir para o painel</Link>
          </Button>
          <Link to="/subscribe?manage=1" className="text-sm text-brand-700 hover:underline dark:text-brand-200">
            Alterar plano
          </Link>
        </CardContent>
      </Card>
    </div>
  )
}

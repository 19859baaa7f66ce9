import { useNavigate } from 'react-router'
import { BackLink } from '@/components/back-link'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { ServiceForm } from './ServiceForm'

export default function AddServicePage() {
  const navigate = useNavigate()
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <BackLink to="/services">Voltar aos serviços</BackLink>
      <h1 className="text-2xl font-bold tracking-tight">Novo Serviço</h1>
      <Card>
        <CardHeader>
          <CardTitle>Dados do serviço</CardTitle>
        </CardHeader>
        <CardContent>
          <ServiceForm variant="page" idPrefix="" onDone={() => navigate('/services')} onCancel={() => navigate('/services')} />
        </CardContent>
      </Card>
    </div>
  )
}

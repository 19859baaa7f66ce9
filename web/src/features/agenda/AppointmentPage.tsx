import { useEffect } from 'react'
import { Navigate, useParams } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { useAppointment } from './api/get-appointment'
import { AppointmentDetails } from './AppointmentDetails'

export default function AppointmentPage() {
  const { id = '' } = useParams()
  const { data, isLoading, isError } = useAppointment(id)
  useEffect(() => {
    if (isError) toast.error('Agendamento não encontrado', { description: 'Ele não existe ou não pôde ser carregado.' })
  }, [isError])
  if (isError) return <Navigate to="/agenda" replace />
  if (isLoading || !data) return <PageSpinner />
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <BackLink to="/agenda">Voltar para a agenda</BackLink>
      <Card>
        <CardHeader>
          <CardTitle>Detalhes do agendamento</CardTitle>
        </CardHeader>
        <CardContent>
          <AppointmentDetails appointment={data} />
        </CardContent>
      </Card>
    </div>
  )
}

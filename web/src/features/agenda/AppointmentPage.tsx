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
  // The id makes the notice one, however often the page mounts before the redirect lands.
  useEffect(() => {
    if (isError)
      toast.error('Agendamento não encontrado', {
        id: `appointment-not-found-${id}`,
        description: 'Ele não existe ou não pôde ser carregado.',
      })
  }, [isError, id])
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

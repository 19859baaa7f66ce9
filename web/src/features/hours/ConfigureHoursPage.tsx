import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { HoursEditor } from '@/components/hours-editor'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { api } from '@/lib/api/client'
import { fetchAvailability, keys, type Day } from '@/lib/api/owner'

export default function ConfigureHoursPage() {
  const { data, isLoading } = useQuery({ queryKey: keys.availability, queryFn: fetchAvailability })
  if (isLoading || !data) return <PageSpinner />
  return <HoursForm initial={data.days} />
}

function HoursForm({ initial }: { initial: Day[] }) {
  const navigate = useNavigate()
  const qc = useQueryClient()
  const [days, setDays] = useState(initial)
  const [busy, setBusy] = useState(false)

  async function save() {
    setBusy(true)
    try {
      await api('/api/availability', { method: 'PUT', body: { days }, auth: true })
      qc.invalidateQueries({ queryKey: keys.availability })
      qc.invalidateQueries({ queryKey: keys.setup })
      toast.success('Horários salvos!', { description: 'Seus horários de atendimento foram atualizados.' })
      navigate('/dashboard')
    } catch (err) {
      toast.error('Erro', { description: err instanceof Error && err.message ? err.message : 'Erro ao salvar horários.' })
      setBusy(false)
    }
  }

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <BackLink />
      <h1 className="text-2xl font-bold tracking-tight">Configurar Horários</h1>
      <Card>
        <CardHeader>
          <CardTitle>Horários de atendimento</CardTitle>
          <CardDescription>Os clientes só veem horários livres dentro destes períodos.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <HoursEditor days={days} onChange={setDays} />
          <div className="flex justify-end">
            <Button onClick={save} disabled={busy}>
              {busy ? 'Salvando...' : 'Salvar horários'}
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  )
}

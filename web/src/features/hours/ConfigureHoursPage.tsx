import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { HoursEditor } from '@/components/hours-editor'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { FormError } from '@/components/ui/field'
import type { Schemas } from '@/lib/api/client'
import { useAvailability } from '@/lib/api/endpoints/get-availability'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { weekFormSchema } from '@/lib/hours-form'
import { useSaveAvailability } from './api/save-availability'
import { ScheduleSettings } from './ScheduleSettings'

type Day = Schemas['Day']

export default function ConfigureHoursPage() {
  const { data, isLoading } = useAvailability()
  if (isLoading || !data) return <PageSpinner />
  return <HoursForm initial={data.days} />
}

function HoursForm({ initial }: { initial: Day[] }) {
  const navigate = useNavigate()
  const form = useSchemaForm(weekFormSchema, { days: initial })
  const days = form.watch('days')
  const saving = useSaveAvailability()
  const busy = saving.isPending || saving.isSuccess

  const save = form.handleSubmit(
    (body) =>
      saving.mutate(body, {
        onSuccess: () => {
          toast.success('Horários salvos!', { description: 'Seus horários de atendimento foram atualizados.' })
          navigate('/dashboard')
        },
        onError: (err) => toast.error('Erro', { description: showServerError(form, err, 'Erro ao salvar horários.') }),
      }),
    (errors) => toast.error('Erro', { description: errors.days?.message ?? 'Erro ao salvar horários.' }),
  )

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <BackLink />
      <h1 className="text-2xl font-bold tracking-tight">Horários e regras</h1>
      <Card>
        <CardHeader>
          <CardTitle>Horários de atendimento</CardTitle>
          <CardDescription>Os clientes só veem horários livres dentro destes períodos. Para uma pausa de almoço, adicione um segundo período no dia.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <form onSubmit={save} className="grid gap-4" noValidate>
            <HoursEditor days={days} onChange={(next) => form.setValue('days', next, { shouldValidate: form.formState.isSubmitted })} />
            <FormError message={form.formState.errors.days?.message ?? serverError(form)} />
            <div className="flex justify-end">
              <Button type="submit" disabled={busy}>
                {busy ? 'Salvando...' : 'Salvar horários'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <ScheduleSettings />
    </div>
  )
}

import { toast } from 'sonner'
import { HoursEditor } from '@/components/hours-editor'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FormError } from '@/components/ui/field'
import { Skeleton } from '@/components/ui/skeleton'
import type { Schemas } from '@/lib/api/client'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { weekSchema } from '@/lib/hours-form'
import * as z from 'zod/mini'
import { useProfessionalHours, useSaveProfessionalHours } from './api/professional-hours'

type Professional = Schemas['Professional']
type Week = Schemas['ProfessionalWeek']

const schema = z.object({ ownHours: z.boolean(), days: weekSchema })

/** A professional's hours: the practice's week, or a week of their own (their Friday afternoons, their lunch). */
export function ProfessionalHoursDialog({ professional, onClose }: { professional: Professional | null; onClose: () => void }) {
  return (
    <Dialog open={professional !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        {professional ? <Loaded professional={professional} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  )
}

function Loaded({ professional, onClose }: { professional: Professional; onClose: () => void }) {
  const { data } = useProfessionalHours(professional.id)
  return (
    <>
      <DialogHeader>
        <DialogTitle>Horários de {professional.name}</DialogTitle>
        <DialogDescription>Siga os horários da clínica ou defina uma semana própria para este profissional.</DialogDescription>
      </DialogHeader>
      {data ? <WeekForm professional={professional} week={data} onClose={onClose} /> : <Skeleton className="h-64" />}
    </>
  )
}

function WeekForm({ professional, week, onClose }: { professional: Professional; week: Week; onClose: () => void }) {
  const form = useSchemaForm(schema, week)
  const own = form.watch('ownHours')
  const days = form.watch('days')
  const save = useSaveProfessionalHours()
  const onSubmit = form.handleSubmit(
    (body) =>
      save.mutate(
        { id: professional.id, body: body.ownHours ? body : { ownHours: false } },
        {
          onSuccess: () => {
            toast.success('Horários salvos!', { description: `Os horários de ${professional.name} foram atualizados.` })
            onClose()
          },
          onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Erro ao salvar horários.') }),
        },
      ),
    (errors) => toast.error('Erro', { description: errors.days?.message ?? 'Erro ao salvar horários.' }),
  )
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <fieldset className="grid gap-2">
        <legend className="sr-only">Semana de trabalho</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="own-hours" className="size-4 accent-brand-700" checked={!own} onChange={() => form.setValue('ownHours', false)} />
          Seguir os horários da clínica
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="own-hours" className="size-4 accent-brand-700" checked={own} onChange={() => form.setValue('ownHours', true)} />
          Horários próprios
        </label>
      </fieldset>
      {own ? (
        <HoursEditor days={days} onChange={(next) => form.setValue('days', next, { shouldValidate: form.formState.isSubmitted })} />
      ) : (
        <p className="text-sm text-stone-600 dark:text-stone-400">Atende nos horários da clínica, definidos em Horários e regras.</p>
      )}
      <FormError message={form.formState.errors.days?.message ?? serverError(form)} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancelar
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar horários'}
        </Button>
      </DialogFooter>
    </form>
  )
}

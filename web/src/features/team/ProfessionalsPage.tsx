import { Clock, Pencil, Plus, Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { useConfirm } from '@/components/ui/confirm-dialog'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { tableCards } from '@/components/ui/table-cards'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { cn } from '@/lib/utils'
import { useCreateProfessional } from './api/create-professional'
import { useDeleteProfessional } from './api/delete-professional'
import { useSetProfessionalActive } from './api/set-professional-active'
import { useUpdateProfessional } from './api/update-professional'
import { useMembers } from './api/members'
import { CouncilFields } from './CouncilFields'
import { MemberAccess } from './MemberAccess'
import { ProfessionalHoursDialog } from './ProfessionalHoursDialog'
import { RecordsCard } from './RecordsCard'
import { professionalFields, professionalSchema } from './professional-form'

type Professional = Schemas['Professional']

export default function ProfessionalsPage() {
  const { data, isLoading, isError } = useProfessionals()
  const members = useMembers()
  const activation = useSetProfessionalActive()
  const removal = useDeleteProfessional()
  const [dialog, setDialog] = useState<{ open: boolean; editing: Professional | null }>({ open: false, editing: null })
  const [hoursOf, setHoursOf] = useState<Professional | null>(null)
  const [confirm, confirmation] = useConfirm()

  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Não foi possível carregar os profissionais.' })
  }, [isError])

  function toggle(p: Professional) {
    activation.mutate(
      { id: p.id, active: !p.active },
      {
        onSuccess: () => toast.success(p.active ? 'Profissional desativado com sucesso.' : 'Profissional ativado com sucesso.'),
        onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível alterar o status do profissional.') }),
      },
    )
  }

  async function remove(p: Professional) {
    const yes = await confirm({
      title: `Excluir ${p.name}?`,
      description: 'O profissional deixa de aparecer na sua página de agendamento. Esta ação não pode ser desfeita.',
      action: 'Excluir profissional',
      destructive: true,
    })
    if (!yes) return
    removal.mutate(p.id, {
      onSuccess: () => toast.success('Profissional excluído'),
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível excluir o profissional.') }),
    })
  }

  const count = data?.length ?? 0
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <BackLink />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Profissionais</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {count === 1 ? '1 profissional cadastrado' : `${count} profissionais cadastrados`}
          </p>
        </div>
        <Button onClick={() => setDialog({ open: true, editing: null })}>
          <Plus aria-hidden /> Adicionar profissional
        </Button>
      </div>
      <Card className={cn('overflow-x-auto', count > 0 && tableCards.frame)}>
        {isLoading ? (
          <div className="p-10 text-center">
            <Spinner />
          </div>
        ) : count === 0 ? (
          <p className="p-10 text-center text-stone-600 dark:text-stone-400">Nenhum profissional cadastrado</p>
        ) : (
          <table className={cn(tableCards.table, 'sm:min-w-[760px]')}>
            <thead className={cn(tableCards.head, 'border-b border-stone-200 text-left text-stone-600 dark:border-stone-800 dark:text-stone-400')}>
              <tr>
                <th className="p-4 font-medium">Nome</th>
                <th className="p-4 font-medium">Especialização</th>
                <th className="p-4 font-medium">E-mail</th>
                <th className="p-4 font-medium">Status</th>
                <th className="p-4 font-medium">Acesso</th>
                <th className="p-4 text-right font-medium">Ações</th>
              </tr>
            </thead>
            <tbody className={tableCards.body}>
              {data!.map((p) => (
                <tr key={p.id} className={tableCards.row}>
                  <td className={tableCards.title}>{p.name}</td>
                  <td className={tableCards.cell} data-label="Especialização">
                    {p.specialization}
                    {p.councilLabel ? <span className="block text-stone-600 dark:text-stone-400">{p.councilLabel}</span> : null}
                  </td>
                  <td className={cn(tableCards.cell, 'break-all')} data-label="E-mail">
                    {p.email ?? '-'}
                  </td>
                  <td className={tableCards.cell} data-label="Status">
                    <button
                      type="button"
                      onClick={() => toggle(p)}
                      aria-label={p.active ? `Ativo: desativar ${p.name}` : `Inativo: ativar ${p.name}`}
                      className={cn(
                        'rounded-full px-3 py-1 text-xs font-medium',
                        p.active ? 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200' : 'bg-stone-200 text-stone-700 dark:bg-stone-800 dark:text-stone-300',
                      )}
                    >
                      {p.active ? 'Ativo' : 'Inativo'}
                    </button>
                  </td>
                  <td className={tableCards.cell} data-label="Acesso">
                    <MemberAccess professional={p} member={members.data?.get(p.id)} confirm={confirm} />
                  </td>
                  <td className={tableCards.actions}>
                    <div className="flex flex-wrap gap-1 sm:justify-end">
                      <Button variant="ghost" size="icon" className={tableCards.action} data-label="Horários" aria-label={`Horários de ${p.name}`} onClick={() => setHoursOf(p)}>
                        <Clock aria-hidden />
                      </Button>
                      <Button variant="ghost" size="icon" className={tableCards.action} data-label="Editar" aria-label={`Editar ${p.name}`} onClick={() => setDialog({ open: true, editing: p })}>
                        <Pencil aria-hidden />
                      </Button>
                      <Button variant="ghost" size="icon" className={tableCards.action} data-label="Excluir" aria-label={`Excluir ${p.name}`} onClick={() => remove(p)}>
                        <Trash2 aria-hidden className="text-red-600" />
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {data ? <RecordsCard professionals={data} /> : null}
      <ProfessionalHoursDialog professional={hoursOf} onClose={() => setHoursOf(null)} />
      <Dialog open={dialog.open} onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}>
        <DialogContent>
          {dialog.open ? (
            <ProfessionalForm
              key={dialog.editing?.id ?? 'new'}
              editing={dialog.editing}
              onDone={() => setDialog({ open: false, editing: null })}
            />
          ) : null}
        </DialogContent>
      </Dialog>
      {confirmation}
    </div>
  )
}

function ProfessionalForm({ editing, onDone }: { editing: Professional | null; onDone: () => void }) {
  const form = useSchemaForm(professionalSchema, professionalFields(editing))
  const { errors } = form.formState
  const create = useCreateProfessional()
  const update = useUpdateProfessional()
  const busy = create.isPending || update.isPending

  const onSubmit = form.handleSubmit(
    (body) => {
      const handlers = {
        onSuccess: () => {
          toast.success(editing ? 'Profissional atualizado' : 'Profissional adicionado')
          onDone()
        },
        onError: (err: Error) => toast.error('Erro', { description: showServerError(form, err, 'Não foi possível salvar o profissional.') }),
      }
      if (editing) update.mutate({ id: editing.id, body }, handlers)
      else create.mutate(body, handlers)
    },
    (e) => {
      if (e.name || e.specialization) toast.error('Erro', { description: 'Nome e especialização são obrigatórios.' })
    },
  )

  return (
    <>
      <DialogHeader>
        <DialogTitle>{editing ? 'Editar profissional' : 'Adicionar profissional'}</DialogTitle>
        <DialogDescription>Quem atende os seus clientes.</DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="pro-name" label="Nome *" error={errors.name?.message}>
          <Input id="pro-name" {...form.register('name')} />
        </Field>
        <Field id="pro-spec" label="Especialização *" error={errors.specialization?.message}>
          <Input id="pro-spec" {...form.register('specialization')} />
        </Field>
        <Field id="pro-email" label="E-mail (opcional)" error={errors.email?.message}>
          <Input id="pro-email" type="email" {...form.register('email')} />
        </Field>
        <CouncilFields form={form} />
        <FormError message={serverError(form)} />
        <DialogFooter>
          <Button type="submit" disabled={busy}>
            {busy ? 'Salvando...' : editing ? 'Salvar alterações' : 'Adicionar'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}

import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { useConfirm } from '@/components/ui/confirm-dialog'
import { Spinner } from '@/components/ui/spinner'
import { tableCards } from '@/components/ui/table-cards'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { useServices } from '@/lib/api/endpoints/get-services'
import { formatBRL } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useDeleteService } from './api/delete-service'
import { ServiceDialog } from './ServiceDialog'

type Service = Schemas['Service']

export default function ServicesPage() {
  const { data, isLoading, isError } = useServices()
  const removal = useDeleteService()
  const [open, setOpen] = useState(false)
  const [editing, setEditing] = useState<Service | null>(null)
  const [confirm, confirmation] = useConfirm()

  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Não foi possível carregar os serviços.' })
  }, [isError])

  async function remove(s: Service) {
    const yes = await confirm({
      title: `Excluir o serviço ${s.name}?`,
      description: 'Ele deixa de ser oferecido na sua página de agendamento. Esta ação não pode ser desfeita.',
      action: 'Excluir serviço',
      destructive: true,
    })
    if (!yes) return
    removal.mutate(s.id, {
      onSuccess: () => toast.success('Serviço excluído'),
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível excluir o serviço.') }),
    })
  }

  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <BackLink />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Serviços</h1>
        <Button
          onClick={() => {
            setEditing(null)
            setOpen(true)
          }}
        >
          <Plus aria-hidden /> Novo Serviço
        </Button>
      </div>
      <Card className={cn('overflow-x-auto', data && data.length > 0 && tableCards.frame)}>
        {isLoading ? (
          <div className="p-10 text-center">
            <Spinner />
          </div>
        ) : !data || data.length === 0 ? (
          <p className="p-10 text-center text-stone-600 dark:text-stone-400">Nenhum serviço cadastrado</p>
        ) : (
          <table className={cn(tableCards.table, 'sm:min-w-[640px]')}>
            <thead className={cn(tableCards.head, 'border-b border-stone-200 text-left text-stone-600 dark:border-stone-800 dark:text-stone-400')}>
              <tr>
                <th className="p-4 font-medium">Nome</th>
                <th className="p-4 font-medium">Descrição</th>
                <th className="p-4 font-medium">Duração</th>
                <th className="p-4 font-medium">Preço</th>
                <th className="p-4 text-right font-medium">Ações</th>
              </tr>
            </thead>
            <tbody className={tableCards.body}>
              {data.map((s) => (
                <tr key={s.id} className={tableCards.row}>
                  <td className={tableCards.title}>
                    {s.name}
                    {!s.active ? <span className="ml-2 text-xs text-stone-500 dark:text-stone-400">(inativo)</span> : null}
                  </td>
                  <td className={cn(tableCards.cell, 'text-stone-600 sm:max-w-xs dark:text-stone-400')} data-label="Descrição">
                    {s.description ?? '—'}
                  </td>
                  <td className={tableCards.cell} data-label="Duração">
                    {s.duration} min
                  </td>
                  <td className={tableCards.cell} data-label="Preço">
                    {formatBRL(s.priceCents)}
                  </td>
                  <td className={tableCards.actions}>
                    <div className="flex flex-wrap gap-1 sm:justify-end">
                      <Button
                        variant="ghost"
                        size="icon"
                        className={tableCards.action}
                        data-label="Editar"
                        aria-label={`Editar ${s.name}`}
                        onClick={() => {
                          setEditing(s)
                          setOpen(true)
                        }}
                      >
                        <Pencil aria-hidden />
                      </Button>
                      <Button variant="ghost" size="icon" className={tableCards.action} data-label="Excluir" aria-label={`Excluir ${s.name}`} onClick={() => remove(s)}>
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
      <ServiceDialog open={open} onOpenChange={setOpen} service={editing} />
      {confirmation}
    </div>
  )
}

import { useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { centsToInput, parseBRL } from '@/lib/format'
import { useCreateService } from './api/create-service'
import { useUpdateService } from './api/update-service'

type Service = Schemas['Service']
type Props = { open: boolean; onOpenChange: (open: boolean) => void; service: Service | null }

const blank = { name: '', description: '', duration: '60', price: '0,00' }

/** The 'Novo Serviço' / 'Editar Serviço' dialog; closing resets the form. */
export function ServiceDialog({ open, onOpenChange, service }: Props) {
  const initial = service
    ? { name: service.name, description: service.description ?? '', duration: String(service.duration), price: centsToInput(service.priceCents) }
    : blank
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {open ? <ServiceForm key={service?.id ?? 'new'} initial={initial} service={service} onDone={() => onOpenChange(false)} onCancel={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  )
}

function ServiceForm({ initial, service, onDone, onCancel }: { initial: typeof blank; service: Service | null; onDone: () => void; onCancel: () => void }) {
  const [form, setForm] = useState(initial)
  const create = useCreateService()
  const update = useUpdateService()
  const busy = create.isPending || update.isPending
  const set = (k: keyof typeof blank) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setForm((f) => ({ ...f, [k]: e.target.value }))
  const editing = service !== null

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    const duration = Number.parseInt(form.duration, 10)
    const priceCents = parseBRL(form.price)
    if (!form.name.trim() || !form.duration.trim() || !form.price.trim() || Number.isNaN(duration) || priceCents === null) {
      toast.error('Campos obrigatórios', { description: 'Preencha todos os campos obrigatórios.' })
      return
    }
    const body = { name: form.name.trim(), description: form.description.trim(), duration, priceCents }
    const handlers = {
      onSuccess: () => {
        toast.success(editing ? 'Serviço atualizado' : 'Serviço criado')
        onDone()
      },
      onError: (err: Error) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível salvar o serviço.') }),
    }
    if (editing) update.mutate({ id: service.id, body }, handlers)
    else create.mutate(body, handlers)
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{editing ? 'Editar Serviço' : 'Novo Serviço'}</DialogTitle>
        <DialogDescription>Nome, duração e preço aparecem na sua página de agendamento.</DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="svc-name" label="Nome do serviço">
          <Input id="svc-name" value={form.name} onChange={set('name')} />
        </Field>
        <Field id="svc-description" label="Descrição">
          <Textarea id="svc-description" value={form.description} onChange={set('description')} />
        </Field>
        <div className="grid grid-cols-2 gap-4">
          <Field id="svc-duration" label="Duração (min)">
            <Input id="svc-duration" type="number" inputMode="numeric" min={1} step={1} value={form.duration} onChange={set('duration')} />
          </Field>
          <Field id="svc-price" label="Preço (R$)">
            <Input id="svc-price" inputMode="decimal" value={form.price} onChange={set('price')} />
          </Field>
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancelar
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Salvando...' : editing ? 'Atualizar Serviço' : 'Criar Serviço'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}

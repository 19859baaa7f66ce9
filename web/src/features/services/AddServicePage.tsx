import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { parseBRL } from '@/lib/format'
import { useCreateService } from './api/create-service'

export default function AddServicePage() {
  const navigate = useNavigate()
  const { data: team } = useProfessionals()
  const create = useCreateService()
  const active = (team ?? []).filter((p) => p.active).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'))
  const [form, setForm] = useState({ name: '', description: '', duration: '60', price: '0,00' })
  const [linked, setLinked] = useState<string[]>([])
  const busy = create.isPending || create.isSuccess
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setForm((f) => ({ ...f, [k]: e.target.value }))

  const duration = Number.parseInt(form.duration, 10)
  const priceCents = parseBRL(form.price)
  const valid = form.name.trim() !== '' && !Number.isNaN(duration) && duration >= 1 && priceCents !== null && priceCents >= 0

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (!valid) {
      toast.error('Erro', { description: 'Preencha todos os campos obrigatórios.' })
      return
    }
    create.mutate(
      { name: form.name.trim(), description: form.description.trim(), duration, priceCents: priceCents ?? 0, professionalIds: linked },
      {
        onSuccess: () => {
          toast.success('Sucesso!', { description: 'Serviço criado com sucesso.' })
          navigate('/services')
        },
        onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Ocorreu um erro ao criar o serviço. Tente novamente.') }),
      },
    )
  }

  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <BackLink to="/services">Voltar aos serviços</BackLink>
      <h1 className="text-2xl font-bold tracking-tight">Novo Serviço</h1>
      <Card>
        <CardHeader>
          <CardTitle>Dados do serviço</CardTitle>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <Field id="name" label="Nome do serviço *">
              <Input id="name" value={form.name} onChange={set('name')} />
            </Field>
            <Field id="description" label="Descrição">
              <Textarea id="description" value={form.description} onChange={set('description')} />
            </Field>
            <div className="grid grid-cols-2 gap-4">
              <Field id="duration" label="Duração (min) *">
                <Input id="duration" type="number" inputMode="numeric" min={1} step={1} value={form.duration} onChange={set('duration')} />
              </Field>
              <Field id="price" label="Preço (R$) *">
                <Input id="price" inputMode="decimal" value={form.price} onChange={set('price')} />
              </Field>
            </div>
            {active.length > 0 ? (
              <fieldset className="grid gap-2">
                <legend className="text-sm font-medium">Profissionais que realizam este serviço (opcional)</legend>
                {active.map((p) => (
                  <label key={p.id} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-700"
                      checked={linked.includes(p.id)}
                      onChange={(e) => setLinked((l) => (e.target.checked ? [...l, p.id] : l.filter((x) => x !== p.id)))}
                    />
                    {p.name} <span className="text-stone-500 dark:text-stone-400">· {p.specialization}</span>
                  </label>
                ))}
              </fieldset>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => navigate('/services')}>
                Cancelar
              </Button>
              <Button type="submit" disabled={!valid || busy}>
                {busy ? 'Salvando...' : 'Criar Serviço'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  )
}

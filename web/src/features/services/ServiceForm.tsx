import type { ReactNode } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import type { Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { useCreateService } from './api/create-service'
import { useUpdateService } from './api/update-service'
import { serviceFields, serviceSchema } from './service-form'

type Service = Schemas['Service']

// The spec gives the /add-service page and the services dialog their own
// texts; the form, its rules and its calls are the same.
const texts = {
  page: {
    required: ['Erro', 'Preencha todos os campos obrigatórios.'],
    mark: ' *',
    failed: 'Ocorreu um erro ao criar o serviço. Tente novamente.',
    created: ['Sucesso!', 'Serviço criado com sucesso.'],
  },
  dialog: {
    required: ['Campos obrigatórios', 'Preencha todos os campos obrigatórios.'],
    mark: '',
    failed: 'Não foi possível salvar o serviço.',
    created: ['Serviço criado', undefined],
  },
} as const

/**
 * The one service form, for a new service (/add-service and the dialog) or to
 * edit one (the dialog). On the page the submit button waits for a valid
 * form; the dialog checks on submit. `footer` lays out the buttons.
 */
export function ServiceForm({
  variant,
  service = null,
  idPrefix,
  onDone,
  onCancel,
  footer = (buttons) => <div className="flex justify-end gap-2">{buttons}</div>,
}: {
  variant: 'page' | 'dialog'
  service?: Service | null
  idPrefix: string
  onDone: () => void
  onCancel: () => void
  footer?: (buttons: ReactNode) => ReactNode
}) {
  const t = texts[variant]
  const form = useSchemaForm(serviceSchema, serviceFields(service), variant === 'page' ? 'change' : 'submit')
  const { errors, isValid } = form.formState
  const { data: team } = useProfessionals()
  const create = useCreateService()
  const update = useUpdateService()
  const busy = create.isPending || update.isPending || (variant === 'page' && create.isSuccess)
  const linked = new Set(service?.professionalIds ?? [])
  const choices = (team ?? []).filter((p) => p.active || linked.has(p.id)).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'))
  const chosen = form.watch('professionalIds')
  const online = form.watch('online')
  const depositKind = form.watch('depositKind')
  const id = (name: string) => `${idPrefix}${name}`

  const onSubmit = form.handleSubmit(
    (body) => {
      const handlers = {
        onSuccess: () => {
          if (service) toast.success('Serviço atualizado')
          else toast.success(t.created[0], { description: t.created[1] })
          onDone()
        },
        onError: (e: Error) => toast.error('Erro', { description: showServerError(form, e, t.failed) }),
      }
      if (service) update.mutate({ id: service.id, body }, handlers)
      else create.mutate(body, handlers)
    },
    () => toast.error(t.required[0], { description: t.required[1] }),
  )

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <Field id={id('name')} label={`Nome do serviço${t.mark}`} error={errors.name?.message}>
        <Input id={id('name')} {...form.register('name')} />
      </Field>
      <Field id={id('description')} label="Descrição" error={errors.description?.message}>
        <Textarea id={id('description')} {...form.register('description')} />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id={id('duration')} label={`Duração (min)${t.mark}`} error={errors.duration?.message}>
          <Input id={id('duration')} type="number" inputMode="numeric" min={1} step={1} {...form.register('duration')} />
        </Field>
        <Field id={id('price')} label={`Preço (R$)${t.mark}`} error={errors.price?.message}>
          <Input id={id('price')} inputMode="decimal" {...form.register('price')} />
        </Field>
      </div>
      <div className="grid grid-cols-2 gap-4">
        <Field id={id('buffer-before')} label="Margem antes (min)" error={errors.bufferBefore?.message}>
          <Input id={id('buffer-before')} type="number" inputMode="numeric" min={0} max={240} step={5} {...form.register('bufferBefore')} />
        </Field>
        <Field id={id('buffer-after')} label="Margem depois (min)" hint="Tempo livre mantido entre atendimentos." error={errors.bufferAfter?.message}>
          <Input id={id('buffer-after')} type="number" inputMode="numeric" min={0} max={240} step={5} {...form.register('bufferAfter')} />
        </Field>
      </div>
      <div className="grid gap-2">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" className="size-4 accent-brand-700" {...form.register('online')} />
          Atendimento online (videochamada)
        </label>
        {online ? (
          <Field
            id={id('online-link')}
            label="Link da videochamada (opcional)"
            hint="Em branco, usamos a sala fixa do seu perfil. O link substitui o endereço na confirmação, nos e-mails e no convite."
            error={errors.onlineLink?.message}
          >
            <Input id={id('online-link')} type="url" inputMode="url" autoCapitalize="none" placeholder="https://meet.google.com/abc-defg-hij" {...form.register('onlineLink')} />
          </Field>
        ) : null}
      </div>
      <fieldset className="grid gap-3 rounded-lg border border-stone-200 p-3 dark:border-stone-700">
        <legend className="px-1 text-sm font-medium">Sinal via Pix</legend>
        <Field id={id('deposit-kind')} label="Cobrar sinal ao agendar">
          <Select id={id('deposit-kind')} {...form.register('depositKind')}>
            <option value="none">Sem sinal</option>
            <option value="fixed">Valor fixo</option>
            <option value="percent">Porcentagem do preço</option>
          </Select>
        </Field>
        {depositKind !== 'none' ? (
          <>
            <div className="grid grid-cols-2 gap-4">
              <Field id={id('deposit-value')} label={depositKind === 'fixed' ? 'Valor do sinal (R$)' : 'Sinal (% do preço)'} error={errors.depositValue?.message}>
                <Input id={id('deposit-value')} inputMode={depositKind === 'fixed' ? 'decimal' : 'numeric'} {...form.register('depositValue')} />
              </Field>
              <Field id={id('deposit-hold')} label="Prazo para pagar (min)" hint="De 10 a 1440. Sem o sinal, o horário é liberado." error={errors.depositHold?.message}>
                <Input id={id('deposit-hold')} type="number" inputMode="numeric" min={10} max={1440} step={5} {...form.register('depositHold')} />
              </Field>
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="size-4 accent-brand-700" {...form.register('depositKeepNoShow')} />
              Reter o sinal em caso de falta
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="size-4 accent-brand-700" {...form.register('depositKeepLate')} />
              Reter o sinal em cancelamento fora do prazo
            </label>
            <p className="text-xs text-stone-600 dark:text-stone-400">Cancelamentos no prazo têm o sinal devolvido por você, via Pix. Cadastre sua chave Pix no Perfil.</p>
          </>
        ) : null}
      </fieldset>
      {choices.length > 0 ? (
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Profissionais que realizam este serviço (opcional)</legend>
          {choices.map((p) => (
            <label key={p.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-brand-700"
                checked={chosen.includes(p.id)}
                onChange={(e) => form.setValue('professionalIds', e.target.checked ? [...chosen, p.id] : chosen.filter((x) => x !== p.id), { shouldDirty: true })}
              />
              {p.name} <span className="text-stone-500 dark:text-stone-400">· {p.specialization}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <FormError message={serverError(form)} />
      {footer(
        <>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancelar
          </Button>
          <Button type="submit" disabled={busy || (variant === 'page' && !isValid)}>
            {busy ? 'Salvando...' : service ? 'Atualizar Serviço' : 'Criar Serviço'}
          </Button>
        </>,
      )}
    </form>
  )
}

import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Skeleton } from '@/components/ui/skeleton'
import { Textarea } from '@/components/ui/textarea'
import { useMessageTemplates, useSaveMessageTemplates, type MessageTemplates } from '@/lib/api/endpoints/message-templates'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'

const text = (what: string) => z.string().check(z.trim(), z.minLength(1, `Escreva a mensagem de ${what}.`), z.maxLength(1000, 'No máximo 1000 caracteres.'))

const schema: FormSchema<MessageTemplates, MessageTemplates> = z.object({
  confirmation: text('confirmação'),
  reminder: text('lembrete'),
  reschedule: text('remarcação'),
})

const fields: { name: keyof MessageTemplates; label: string }[] = [
  { name: 'confirmation', label: 'Confirmação' },
  { name: 'reminder', label: 'Lembrete' },
  { name: 'reschedule', label: 'Remarcação' },
]

/**
 * 'Mensagens do WhatsApp': the texts the agenda's and the dashboard's
 * WhatsApp buttons open with, with {nome}, {data}, {hora}, {servico},
 * {profissional}, {link}, {endereco} and {link_sessao} filled for each
 * appointment, and {link_cliente}
 * (a fresh private link for the client, issued when the message is composed).
 */
export function MessageTemplatesCard() {
  const { data } = useMessageTemplates()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Mensagens do WhatsApp</CardTitle>
        <CardDescription>
          Os textos que os botões de WhatsApp da agenda abrem, já preenchidos. Use {'{nome}'}, {'{data}'}, {'{hora}'}, {'{servico}'}, {'{profissional}'} e {'{link}'} (sua página de
          agendamento). Com {'{link_cliente}'}, a mensagem leva o link pessoal do cliente para ver, remarcar ou cancelar o horário (um link novo a cada envio; os
          anteriores continuam valendo até o fim do atendimento). {'{endereco}'} é o endereço do seu perfil ou, para um serviço online, o link da videochamada;
          {' {link_sessao}'} é só o link da videochamada (vazio nos atendimentos presenciais). {'{link_confirmar}'}, {'{link_remarcar}'} e {'{link_cancelar}'} são os
          links de resposta com um toque do cliente (novos a cada envio). O “Lembrete” é também o texto dos lembretes automáticos pelo WhatsApp.
        </CardDescription>
      </CardHeader>
      <CardContent>{data ? <TemplatesForm templates={data} /> : <Skeleton className="h-40" />}</CardContent>
    </Card>
  )
}

function TemplatesForm({ templates }: { templates: MessageTemplates }) {
  const form = useSchemaForm(schema, templates)
  const save = useSaveMessageTemplates()
  const { errors } = form.formState
  const onSubmit = form.handleSubmit(
    (body) =>
      save.mutate(body, {
        onSuccess: (saved) => {
          form.reset(saved)
          toast.success('Mensagens salvas')
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível salvar as mensagens.') }),
      }),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label="Mensagens do WhatsApp">
      {fields.map((f) => (
        <Field key={f.name} id={`msg-${f.name}`} label={f.label} error={errors[f.name]?.message}>
          <Textarea id={`msg-${f.name}`} rows={3} {...form.register(f.name)} />
        </Field>
      ))}
      <FormError message={serverError(form)} />
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar mensagens'}
        </Button>
      </div>
    </form>
  )
}

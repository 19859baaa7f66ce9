import { useState } from 'react'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'
import { useConnectWhatsApp, useDisconnectWhatsApp, useWhatsApp, type WhatsAppConnectInput, type WhatsAppStatus } from './api/whatsapp'
import { copyText } from '@/lib/clipboard'
import { formatPhone } from '@/lib/phone'

type Fields = { wabaId: string; phoneNumberId: string; accessToken: string; appSecret: string }

const id = (what: string) => z.string().check(z.trim(), z.minLength(1, `Informe o ${what}.`), z.regex(/^\d+$/, 'Use só os dígitos, como o Meta mostra.'))

/** A new connection needs both secrets; a replacement keeps the stored ones when left blank. */
const schemaFor = (connected: boolean): FormSchema<Fields, WhatsAppConnectInput> => {
  const secret = (what: string) => (connected ? z.string().check(z.trim()) : z.string().check(z.trim(), z.minLength(1, `Informe ${what}.`)))
  return z.object({
    wabaId: id('ID da conta'),
    phoneNumberId: id('ID do número de telefone'),
    accessToken: secret('o token de acesso permanente'),
    appSecret: secret('a chave secreta do app'),
  })
}

const templateStatusLabel: Record<string, string> = {
  APPROVED: 'Aprovado',
  PENDING: 'Em análise pelo Meta',
  REJECTED: 'Recusado pelo Meta',
  PAUSED: 'Pausado pelo Meta',
  DISABLED: 'Desativado pelo Meta',
}

const kindLabel: Record<string, string> = {
  confirmation: 'Confirmação de agendamento',
  reminder: 'Lembrete (Confirmar, Remarcar, Cancelar)',
  waitlist_offer: 'Oferta da lista de espera (com o link para ficar com o horário)',
}

/**
 * 'WhatsApp Business (envio automático)': the owner connects their own
 * number on the WhatsApp Business Platform (Cloud API). Agendei checks the
 * credentials with Meta, shows the number's name, creates its message
 * templates in the owner's account and tracks their review; confirmations
 * and reminders then go from the owner's number, and clients' taps on the
 * reminder's buttons come back by webhook. Secrets are write-only here.
 */
export function WhatsAppCard() {
  const { data } = useWhatsApp()
  return (
    <Card>
      <CardHeader>
        <CardTitle>WhatsApp Business (envio automático)</CardTitle>
        <CardDescription>
          Conecte o número da sua clínica na plataforma WhatsApp Business (API de Nuvem do Meta) e o Agendei envia sozinho as confirmações e os lembretes, com os botões
          Confirmar, Remarcar e Cancelar. O Meta cobra cada mensagem na sua conta. Enquanto não estiver conectado — ou um modelo de mensagem não estiver aprovado — essa
          mensagem vai por e-mail e o botão de WhatsApp da agenda continua funcionando.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">{data ? <Connection status={data} /> : <Skeleton className="h-40" />}</CardContent>
    </Card>
  )
}

function Connection({ status }: { status: WhatsAppStatus }) {
  const [editing, setEditing] = useState(!status.connected)
  if (status.connected && !editing) return <Connected status={status} onReplace={() => setEditing(true)} />
  return <ConnectForm status={status} onDone={() => setEditing(false)} />
}

function Connected({ status, onReplace }: { status: WhatsAppStatus; onReplace: () => void }) {
  const disconnect = useDisconnectWhatsApp()
  const [asking, setAsking] = useState(false)
  return (
    <>
      <div className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/30">
        <p className="font-medium">
          Conectado: {status.verifiedName} ({formatPhone(status.displayPhoneNumber)})
        </p>
        <p className="text-stone-600 dark:text-stone-400">Mensagens enviadas este mês: {status.sentThisMonth}</p>
      </div>
      <div className="grid gap-1">
        <h3 className="text-sm font-medium">Modelos de mensagem</h3>
        <ul className="grid gap-1 text-sm" aria-label="Modelos de mensagem">
          {status.templates.map((t) => (
            <li key={t.kind} className="flex flex-wrap justify-between gap-2 rounded-md border border-stone-200 px-2 py-1 dark:border-stone-800">
              <span>{kindLabel[t.kind] ?? t.kind}</span>
              <span className={t.status === 'APPROVED' ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-400'}>{templateStatusLabel[t.status] ?? 'Situação desconhecida no Meta'}</span>
            </li>
          ))}
        </ul>
        <p className="text-xs text-stone-600 dark:text-stone-400">A análise do Meta costuma levar de minutos a um dia. Até a aprovação, essa mensagem vai por e-mail.</p>
      </div>
      <div className="grid gap-2">
        <h3 className="text-sm font-medium">Webhook (respostas e avisos de entrega)</h3>
        <p className="text-xs text-stone-600 dark:text-stone-400">
          No painel do seu app em developers.facebook.com: WhatsApp → Configuração → Webhook → Editar. Cole a URL e o token abaixo, verifique e assine o campo “messages”.
        </p>
        <Copyable id="wa-webhook-url" label="URL de retorno (webhook)" value={status.webhookUrl} />
        <Copyable id="wa-verify-token" label="Token de verificação" value={status.verifyToken} />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={() => setAsking(true)} disabled={disconnect.isPending}>
          Desconectar
        </Button>
        <Button type="button" onClick={onReplace}>
          Trocar dados de acesso
        </Button>
      </div>
      <ConfirmDialog
        open={asking}
        title="Desconectar o WhatsApp Business?"
        description="O token e a chave secreta guardados são apagados, e as confirmações e os lembretes voltam a ir por e-mail."
        action="Desconectar"
        destructive
        onDismiss={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          disconnect.mutate(undefined, {
            onSuccess: () => toast.success('WhatsApp desconectado'),
            onError: () => toast.error('Erro', { description: 'Não foi possível desconectar. Tente novamente.' }),
          })
        }}
      />
    </>
  )
}

export function Copyable({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <Field id={id} label={label}>
      <div className="flex gap-2">
        <Input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <Button
          type="button"
          variant="outline"
          aria-label={`Copiar ${label.toLowerCase()}`}
          onClick={() => void copyText(value, 'Copiado', 'Copie manualmente.')}
        >
          Copiar
        </Button>
      </div>
    </Field>
  )
}

function ConnectForm({ status, onDone }: { status: WhatsAppStatus; onDone: () => void }) {
  const connect = useConnectWhatsApp()
  const form = useSchemaForm(schemaFor(status.connected), { wabaId: status.wabaId, phoneNumberId: status.phoneNumberId, accessToken: '', appSecret: '' })
  const { errors } = form.formState
  const keep = status.connected ? ' Deixe em branco para manter o atual.' : ''
  const onSubmit = form.handleSubmit(
    (body) =>
      connect.mutate(body, {
        onSuccess: (st) => {
          toast.success('WhatsApp conectado', { description: `${st.verifiedName} (${formatPhone(st.displayPhoneNumber)})` })
          onDone()
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível conectar o WhatsApp.') }),
      }),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label="Conectar WhatsApp Business">
      <Field
        id="wa-waba"
        label="ID da conta do WhatsApp Business"
        error={errors.wabaId?.message}
        hint="No painel do seu app em developers.facebook.com: WhatsApp → Configuração da API, em “ID da conta do WhatsApp Business”."
      >
        <Input id="wa-waba" inputMode="numeric" autoComplete="off" {...form.register('wabaId')} />
      </Field>
      <Field
        id="wa-phone"
        label="ID do número de telefone"
        error={errors.phoneNumberId?.message}
        hint="Na mesma tela, abaixo do número escolhido: “ID do número de telefone” (não é o número em si)."
      >
        <Input id="wa-phone" inputMode="numeric" autoComplete="off" {...form.register('phoneNumberId')} />
      </Field>
      <Field
        id="wa-token"
        label="Token de acesso permanente"
        error={errors.accessToken?.message}
        hint={`Em business.facebook.com: Configurações do negócio → Usuários do sistema → Gerar novo token, com as permissões whatsapp_business_messaging e whatsapp_business_management (o token temporário da Configuração da API expira em 24 horas). Guardado criptografado e nunca mostrado de volta.${keep}`}
      >
        <Input id="wa-token" type="password" autoComplete="off" {...form.register('accessToken')} />
      </Field>
      <Field
        id="wa-secret"
        label="Chave secreta do app"
        error={errors.appSecret?.message}
        hint={`No painel do app: Configurações do app → Básico → Chave secreta do app (Mostrar). Com ela o Agendei confere que as respostas e os avisos de entrega vêm mesmo do Meta.${keep}`}
      >
        <Input id="wa-secret" type="password" autoComplete="off" {...form.register('appSecret')} />
      </Field>
      <FormError message={serverError(form)} />
      <div className="flex flex-wrap justify-end gap-2">
        {status.connected ? (
          <Button type="button" variant="outline" onClick={onDone}>
            Cancelar
          </Button>
        ) : null}
        <Button type="submit" disabled={connect.isPending}>
          {connect.isPending ? 'Conectando...' : 'Conectar WhatsApp'}
        </Button>
      </div>
    </form>
  )
}

import { useState } from 'react'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { formatInstant } from '@/lib/dates'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'
import { useConnectMercadoPago, useDisconnectMercadoPago, useMercadoPago, type MercadoPagoConnectInput, type MercadoPagoStatus } from './api/mercadopago'
import { Copyable } from './WhatsAppCard'

type Fields = { accessToken: string; webhookSecret: string }

/** A new connection needs both secrets; a replacement keeps the stored ones when left blank. */
const schemaFor = (connected: boolean): FormSchema<Fields, MercadoPagoConnectInput> => {
  const token = connected
    ? z.string().check(z.trim())
    : z.string().check(z.trim(), z.minLength(1, 'Informe o Access Token de produção.'), z.regex(/^(APP_USR|TEST)-/, 'O Access Token começa com APP_USR-.'))
  const secret = connected ? z.string().check(z.trim()) : z.string().check(z.trim(), z.minLength(1, 'Informe a assinatura secreta do webhook.'))
  return z.object({ accessToken: token, webhookSecret: secret })
}

/**
 * 'Mercado Pago (sinal por Pix automático)': the owner connects their own
 * Mercado Pago account; a booking's deposit is then charged as a Pix of
 * that account and confirmed by itself when paid (Mercado Pago's webhook,
 * checked by its signature). Secrets are write-only here.
 */
export function MercadoPagoCard() {
  const { data } = useMercadoPago()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Mercado Pago (sinal por Pix automático)</CardTitle>
        <CardDescription>
          Conecte a conta do Mercado Pago da sua clínica e o sinal de cada agendamento vira um Pix dessa conta: quando o cliente paga, o agendamento é confirmado sozinho,
          sem você conferir o extrato. O Mercado Pago cobra a tarifa do Pix na sua conta. Sem conexão, o sinal usa a sua chave Pix e você marca “Sinal recebido”.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">{data ? <Connection status={data} /> : <Skeleton className="h-32" />}</CardContent>
    </Card>
  )
}

function Connection({ status }: { status: MercadoPagoStatus }) {
  const [editing, setEditing] = useState(!status.connected)
  if (status.connected && !editing) return <Connected status={status} onReplace={() => setEditing(true)} />
  return <ConnectForm status={status} onDone={() => setEditing(false)} />
}

function Connected({ status, onReplace }: { status: MercadoPagoStatus; onReplace: () => void }) {
  const disconnect = useDisconnectMercadoPago()
  const [asking, setAsking] = useState(false)
  return (
    <>
      <div className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/30">
        <p className="font-medium break-words">Conectado: {status.nickname}</p>
        <p className="text-stone-600 dark:text-stone-400">Conta do Mercado Pago nº {status.userId}</p>
        <p className="text-stone-600 dark:text-stone-400">
          {status.lastNoticeAt ? `Último aviso de pagamento recebido: ${formatInstant(status.lastNoticeAt, undefined, true)}` : 'Nenhum aviso de pagamento recebido ainda.'}
        </p>
      </div>
      {status.signatureRefusedAt ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/30 dark:text-amber-200">
          Recusamos um aviso em {formatInstant(status.signatureRefusedAt, undefined, true)} porque a assinatura não confere com a assinatura secreta guardada. Confira
          a assinatura secreta em Suas integrações → Webhooks e troque-a aqui em “Trocar dados de acesso”. Enquanto isso, cada Pix é conferido no Mercado Pago pouco antes
          do fim do prazo do sinal.
        </p>
      ) : null}
      <div className="grid gap-2">
        <h3 className="text-sm font-medium">Webhook (avisos de pagamento)</h3>
        <p className="text-xs text-stone-600 dark:text-stone-400">
          Cada Pix já leva este endereço. Para receber também os avisos que o Mercado Pago reenvia, cole-o em Suas integrações → sua aplicação → Webhooks → Configurar
          notificações, no modo produção, com o evento “Pagamentos”.
        </p>
        <Copyable id="mp-webhook-url" label="URL de notificação (webhook)" value={status.webhookUrl} />
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
        title="Desconectar o Mercado Pago?"
        description="O Access Token e a assinatura secreta guardados são apagados. Os próximos sinais usam a sua chave Pix, e você confirma cada um com “Sinal recebido”."
        action="Desconectar"
        destructive
        onDismiss={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          disconnect.mutate(undefined, {
            onSuccess: () => toast.success('Mercado Pago desconectado'),
            onError: () => toast.error('Erro', { description: 'Não foi possível desconectar. Tente novamente.' }),
          })
        }}
      />
    </>
  )
}

function ConnectForm({ status, onDone }: { status: MercadoPagoStatus; onDone: () => void }) {
  const connect = useConnectMercadoPago()
  const form = useSchemaForm(schemaFor(status.connected), { accessToken: '', webhookSecret: '' })
  const { errors } = form.formState
  const keep = status.connected ? ' Deixe em branco para manter o atual.' : ''
  const onSubmit = form.handleSubmit(
    (body) =>
      connect.mutate(body, {
        onSuccess: (st) => {
          toast.success('Mercado Pago conectado', { description: st.nickname })
          onDone()
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível conectar o Mercado Pago.') }),
      }),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label="Conectar Mercado Pago">
      <Field
        id="mp-token"
        label="Access Token de produção"
        error={errors.accessToken?.message}
        hint={`Em mercadopago.com.br/developers: Suas integrações → sua aplicação → Credenciais de produção → Access Token (começa com APP_USR-; não é a Public Key). Guardado criptografado e nunca mostrado de volta.${keep}`}
      >
        <Input id="mp-token" type="password" autoComplete="off" {...form.register('accessToken')} />
      </Field>
      <Field
        id="mp-secret"
        label="Assinatura secreta do webhook"
        error={errors.webhookSecret?.message}
        hint={`Na mesma aplicação: Webhooks → Configurar notificações → Assinatura secreta. Com ela o Agendei confere que cada aviso de pagamento vem mesmo do Mercado Pago.${keep}`}
      >
        <Input id="mp-secret" type="password" autoComplete="off" {...form.register('webhookSecret')} />
      </Field>
      <FormError message={serverError(form)} />
      <div className="flex flex-wrap justify-end gap-2">
        {status.connected ? (
          <Button type="button" variant="outline" onClick={onDone}>
            Cancelar
          </Button>
        ) : null}
        <Button type="submit" disabled={connect.isPending}>
          {connect.isPending ? 'Conectando...' : 'Conectar Mercado Pago'}
        </Button>
      </div>
    </form>
  )
}

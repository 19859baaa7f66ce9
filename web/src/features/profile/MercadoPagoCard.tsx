import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { formatInstant } from '@/lib/dates'
import { errorMessage } from '@/lib/api/client'
import type { FormSchema } from '@/lib/form'
import { mercadoPagoConnection, startMercadoPagoOAuth, type MercadoPagoConnectInput, type MercadoPagoStatus } from './api/mercadopago'
import { ConnectionCard, type ConnectionField } from './ConnectionCard'

type Fields = { accessToken: string; webhookSecret: string }

/** A new connection needs both secrets; a replacement keeps the stored ones when left blank. */
const schemaFor = (connected: boolean): FormSchema<Fields, MercadoPagoConnectInput> => {
  const token = connected
    ? z.string().check(z.trim())
    : z.string().check(z.trim(), z.minLength(1, 'Informe o Access Token de produção.'), z.regex(/^(APP_USR|TEST)-/, 'O Access Token começa com APP_USR-.'))
  const secret = connected ? z.string().check(z.trim()) : z.string().check(z.trim(), z.minLength(1, 'Informe a assinatura secreta do webhook.'))
  return z.object({ accessToken: token, webhookSecret: secret })
}

const fields: ConnectionField<Fields>[] = [
  {
    name: 'accessToken',
    id: 'mp-token',
    label: 'Access Token de produção',
    secret: true,
    hint: 'Em mercadopago.com.br/developers: Suas integrações → sua aplicação → Credenciais de produção → Access Token (começa com APP_USR-; não é a Public Key). Guardado criptografado e nunca mostrado de volta.',
  },
  {
    name: 'webhookSecret',
    id: 'mp-secret',
    label: 'Assinatura secreta do webhook',
    secret: true,
    hint: 'Na mesma aplicação: Webhooks → Configurar notificações → Assinatura secreta. Com ela o Agendei confere que cada aviso de pagamento vem mesmo do Mercado Pago.',
  },
]

/**
 * 'Mercado Pago (sinal por Pix automático)': the owner connects their own
 * Mercado Pago account; a booking's deposit is then charged as a Pix of
 * that account and confirmed by itself when paid (Mercado Pago's webhook,
 * checked by its signature). Secrets are write-only here.
 */
export function MercadoPagoCard() {
  return (
    <ConnectionCard
      title="Mercado Pago (sinal por Pix automático)"
      description="Conecte a conta do Mercado Pago da sua clínica e o sinal de cada agendamento vira um Pix dessa conta: quando o cliente paga, o agendamento é confirmado sozinho, sem você conferir o extrato. O Mercado Pago cobra a tarifa do Pix na sua conta. Sem conexão, o sinal usa a sua chave Pix e você marca “Sinal recebido”."
      api={mercadoPagoConnection}
      skeleton="h-32"
      oneButton={{ render: (status) => (status.oauthAvailable ? <OAuthButton /> : null), folded: 'Conectar com o Access Token' }}
      details={(status) => <Details status={status} />}
      webhook={{
        heading: 'Webhook (avisos de pagamento)',
        help: 'Cada Pix já leva este endereço. Para receber também os avisos que o Mercado Pago reenvia, cole-o em Suas integrações → sua aplicação → Webhooks → Configurar notificações, no modo produção, com o evento “Pagamentos”.',
        // A connection made by the button has nothing to paste: its notices come to the operator's application.
        copy: (status) => (status.webhookUrl ? [{ id: 'mp-webhook-url', label: 'URL de notificação (webhook)', value: status.webhookUrl }] : []),
      }}
      disconnectDialog={{
        title: 'Desconectar o Mercado Pago?',
        description: 'O Access Token e a assinatura secreta guardados são apagados. Os próximos sinais usam a sua chave Pix, e você confirma cada um com “Sinal recebido”.',
        done: 'Mercado Pago desconectado',
      }}
      form={{
        label: 'Conectar Mercado Pago',
        schema: schemaFor,
        // A connection made by the button has no token of the owner's to keep: the manual form asks for both.
        keeps: (status) => status.connected && status.auth !== 'oauth',
        values: () => ({ accessToken: '', webhookSecret: '' }),
        fields,
        submit: 'Conectar Mercado Pago',
        failed: 'Não foi possível conectar o Mercado Pago.',
        done: (st) => ({ title: 'Mercado Pago conectado', description: st.nickname }),
      }}
    />
  )
}

/** The account, the last payment notice, and a refused notice's warning (the webhook's health). */
function Details({ status }: { status: MercadoPagoStatus }) {
  if (status.reconnect) {
    return (
      <div role="status" className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/30 dark:text-amber-200">
        <p className="font-medium">Reconecte o Mercado Pago</p>
        <p>
          O Mercado Pago não renovou o acesso do Agendei à conta {status.nickname} (a autorização foi removida ou expirou). Enquanto isso, os sinais usam a sua
          chave Pix.
        </p>
        {status.oauthAvailable ? (
          <div>
            <OAuthButton />
          </div>
        ) : null}
      </div>
    )
  }
  return (
    <>
      <div className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/30">
        <p className="font-medium break-words">Conectado: {status.nickname}</p>
        <p className="text-stone-600 dark:text-stone-400">Conta do Mercado Pago nº {status.userId}</p>
        {status.auth === 'oauth' ? (
          <p className="text-stone-600 dark:text-stone-400">Conectado pelo botão: o Agendei renova o acesso sozinho e recebe os avisos de pagamento.</p>
        ) : null}
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
    </>
  )
}

/**
 * 'Conectar Mercado Pago': asks the server for Mercado Pago's authorization
 * page (OAuth with PKCE, through the operator's application) and goes
 * there; Mercado Pago sends the owner back to /profile/mercadopago.
 */
function OAuthButton() {
  const start = useMutation({
    mutationFn: startMercadoPagoOAuth,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível abrir o Mercado Pago. Tente novamente.') }),
  })
  return (
    <Button type="button" onClick={() => start.mutate()} disabled={start.isPending || start.isSuccess}>
      {start.isPending || start.isSuccess ? 'Abrindo o Mercado Pago...' : 'Conectar Mercado Pago'}
    </Button>
  )
}

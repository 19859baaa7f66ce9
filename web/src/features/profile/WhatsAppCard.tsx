import { useState } from 'react'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { usePlacedSwitch } from '@/lib/placed-switch'
import type { FormSchema } from '@/lib/form'
import { formatPhone } from '@/lib/phone'
import { toast } from 'sonner'
import { useProfile } from '@/lib/api/endpoints/get-profile'
import { ApiError, errorMessage } from '@/lib/api/client'
import { useWhatsAppOperator, useWhatsAppSignup, whatsAppConnection, type WhatsAppConnectInput, type WhatsAppStatus } from './api/whatsapp'
import { runEmbeddedSignup, SignupCancelled } from './whatsapp-signup'
import { ConnectionCard, type ConnectionField } from './ConnectionCard'

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

const fields: ConnectionField<Fields>[] = [
  {
    name: 'wabaId',
    id: 'wa-waba',
    label: 'ID da conta do WhatsApp Business',
    numeric: true,
    hint: 'No painel do seu app em developers.facebook.com: WhatsApp → Configuração da API, em “ID da conta do WhatsApp Business”.',
  },
  {
    name: 'phoneNumberId',
    id: 'wa-phone',
    label: 'ID do número de telefone',
    numeric: true,
    hint: 'Na mesma tela, abaixo do número escolhido: “ID do número de telefone” (não é o número em si).',
  },
  {
    name: 'accessToken',
    id: 'wa-token',
    label: 'Token de acesso permanente',
    secret: true,
    hint: 'Em business.facebook.com: Configurações do negócio → Usuários do sistema → Gerar novo token, com as permissões whatsapp_business_messaging e whatsapp_business_management (o token temporário da Configuração da API expira em 24 horas). Guardado criptografado e nunca mostrado de volta.',
  },
  {
    name: 'appSecret',
    id: 'wa-secret',
    label: 'Chave secreta do app',
    secret: true,
    hint: 'No painel do app: Configurações do app → Básico → Chave secreta do app (Mostrar). Com ela o Agendei confere que as respostas e os avisos de entrega vêm mesmo do Meta.',
  },
]

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
  cancellation: 'Aviso de cancelamento',
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
  return (
    <ConnectionCard
      title="WhatsApp Business (envio automático)"
      description="Conecte o número da sua clínica na plataforma WhatsApp Business (API de Nuvem do Meta) e o Agendei envia sozinho as confirmações e os lembretes, com os botões Confirmar, Remarcar e Cancelar. O Meta cobra cada mensagem na sua conta. Enquanto não estiver conectado — ou um modelo de mensagem não estiver aprovado — essa mensagem vai por e-mail e o botão de WhatsApp da agenda continua funcionando."
      api={whatsAppConnection}
      skeleton="h-40"
      details={(status) => <Details status={status} />}
      lead={(status) => (status.connected || !status.operator.available ? null : <AgendeiNumber status={status} />)}
      oneButton={{ render: (status) => (status.signup.available ? <SignupButton status={status} /> : null), folded: 'Conectar com os IDs e o token' }}
      webhook={{
        heading: 'Webhook (respostas e avisos de entrega)',
        help: 'No painel do seu app em developers.facebook.com: WhatsApp → Configuração → Webhook → Editar. Cole a URL e o token abaixo, verifique e assine o campo “messages”.',
        // A number connected by the button has nothing to set up: its events come to the Agendei app.
        copy: (status) =>
          status.signedUp
            ? []
            : [
                { id: 'wa-webhook-url', label: 'URL de retorno (webhook)', value: status.webhookUrl },
                { id: 'wa-verify-token', label: 'Token de verificação', value: status.verifyToken },
              ],
      }}
      disconnectDialog={{
        title: 'Desconectar o WhatsApp Business?',
        description: 'O token e a chave secreta guardados são apagados, e as confirmações e os lembretes voltam a ir por e-mail.',
        done: 'WhatsApp desconectado',
      }}
      form={{
        label: 'Conectar WhatsApp Business',
        schema: schemaFor,
        values: (status) => ({ wabaId: status.wabaId, phoneNumberId: status.phoneNumberId, accessToken: '', appSecret: '' }),
        fields,
        submit: 'Conectar WhatsApp',
        failed: 'Não foi possível conectar o WhatsApp.',
        done: (st) => ({ title: 'WhatsApp conectado', description: `${st.verifiedName} (${formatPhone(st.displayPhoneNumber)})` }),
      }}
    />
  )
}

/** The number, this month's messages and the templates' review. */
function Details({ status }: { status: WhatsAppStatus }) {
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
    </>
  )
}

/**
 * The Agendei number (the operator's, issue 41 §1): one switch, for an
 * owner who has not connected their own number (then their own is used
 * and this is not shown). Says plainly whose number the messages go from,
 * that they name the practice, and this month's count of the allowance.
 */
function AgendeiNumber({ status }: { status: WhatsAppStatus }) {
  const op = status.operator
  const toggle = useWhatsAppOperator()
  const placed = usePlacedSwitch(op.enabled)
  const practice = useProfile().data?.name || 'sua clínica'
  const full = op.sentThisMonth >= op.allowance
  return (
    <section aria-labelledby="wa-agendei-title" className="grid gap-2 rounded-md border border-stone-200 p-3 text-sm dark:border-stone-800">
      <h3 id="wa-agendei-title" className="font-medium">
        Número de WhatsApp do Agendei
      </h3>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          role="switch"
          className="mt-0.5 size-4 shrink-0 accent-brand-700"
          // While saving, the switch shows where the owner put it; on an error it goes back to what the server keeps.
          checked={placed.checked}
          disabled={placed.saving}
          onChange={(e) => {
            placed.place(e.target.checked)
            toggle.mutate(e.target.checked, {
              onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível mudar o envio pelo número do Agendei.') }),
              onSettled: placed.settle,
            })
          }}
        />
        <span>Enviar confirmações, lembretes e ofertas da lista de espera pelo WhatsApp do Agendei</span>
      </label>
      <p className="text-stone-600 dark:text-stone-400">
        As mensagens saem do número de WhatsApp do Agendei, não do seu, e começam com o nome da sua clínica: “Mensagem de {practice}: olá, Ana! Lembrete do seu horário…”. Os botões Confirmar, Remarcar e
        Cancelar funcionam igual. Nada para configurar no Meta.
      </p>
      <p className={full ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-stone-700 dark:text-stone-300'}>
        {op.sentThisMonth} de {op.allowance} mensagens este mês
      </p>
      {op.enabled && full && <p className="text-amber-700 dark:text-amber-400">O limite do mês acabou: até o dia 1º, lembretes e avisos vão por e-mail; para quem não deu e-mail, use o botão de WhatsApp da agenda.</p>}
      {op.enabled && !op.ready && <p className="text-stone-600 dark:text-stone-400">O Meta ainda está analisando as mensagens do Agendei. Até a aprovação, elas vão por e-mail.</p>}
      <p className="text-xs text-stone-600 dark:text-stone-400">Prefere enviar do seu próprio número? Conecte-o abaixo: ele passa a ser usado no lugar do número do Agendei.</p>
    </section>
  )
}

/**
 * 'Conectar meu WhatsApp' (Meta's Embedded Signup): Meta's own window
 * (loaded only on this click), then the code and ids go to the server,
 * which registers the number, subscribes to its events and creates the
 * templates. When the number already has two-step verification, Meta asks
 * for its PIN: the owner types it and goes through Meta's window again
 * (each code is valid once).
 */
function SignupButton({ status }: { status: WhatsAppStatus }) {
  const signup = useWhatsAppSignup()
  const [busy, setBusy] = useState(false)
  const [askPIN, setAskPIN] = useState(false)
  const [pin, setPIN] = useState('')
  const [pinError, setPINError] = useState('')
  // What Meta's window ended with when it was not a connection: the owner leaving it (quiet) or a step left to do at Meta.
  const [note, setNote] = useState<{ text: string; warn: boolean } | null>(null)
  const cfg = status.signup
  const start = async () => {
    if (askPIN && !/^\d{6}$/.test(pin)) {
      setPINError('O PIN tem 6 dígitos.')
      return
    }
    setPINError('')
    setNote(null)
    setBusy(true)
    try {
      const got = await runEmbeddedSignup({ appId: cfg.appId ?? '', configId: cfg.configId ?? '', graphVersion: cfg.graphVersion ?? '' })
      const st = await signup.mutateAsync({ ...got, ...(askPIN ? { pin } : {}) })
      setAskPIN(false)
      toast.success('WhatsApp conectado', { description: `${st.verifiedName} (${formatPhone(st.displayPhoneNumber)})` })
    } catch (e) {
      if (e instanceof ApiError && e.code === 'whatsapp_pin_required') {
        setAskPIN(true)
      } else if (e instanceof ApiError && e.code === 'whatsapp_pin_mismatch') {
        setPINError(e.message)
      } else if (e instanceof SignupCancelled && e.tone !== 'error') {
        setNote({ text: e.message, warn: e.tone === 'warn' })
      } else {
        toast.error('Erro', { description: e instanceof SignupCancelled ? e.message : errorMessage(e, 'Não foi possível conectar o WhatsApp.') })
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="grid gap-2 text-sm">
      <p className="text-stone-600 dark:text-stone-400">
        Entre com a sua conta do Facebook na janela do Meta e escolha (ou cadastre) o número da clínica. O Agendei faz o resto: registra o número, recebe as respostas e
        cria os modelos de mensagem.
      </p>
      {askPIN ? (
        <div className="grid gap-1">
          <label htmlFor="wa-pin" className="font-medium">
            PIN da verificação em duas etapas
          </label>
          <Input id="wa-pin" inputMode="numeric" autoComplete="off" maxLength={6} value={pin} onChange={(e) => setPIN(e.target.value.trim())} aria-invalid={pinError ? true : undefined} aria-describedby="wa-pin-hint" />
          <p id="wa-pin-hint" className="text-stone-600 dark:text-stone-400">
            Este número já tem verificação em duas etapas. Digite o PIN de 6 dígitos dele e clique de novo: a janela do Meta abre mais uma vez para confirmar.
          </p>
          {pinError ? (
            <p role="alert" className="text-red-700 dark:text-red-400">
              {pinError}
            </p>
          ) : null}
        </div>
      ) : null}
      {note ? (
        <p role="status" className={note.warn ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-stone-600 dark:text-stone-400'}>
          {note.text}
        </p>
      ) : null}
      <div>
        <Button type="button" onClick={() => void start()} disabled={busy}>
          {busy ? 'Conectando ao Meta...' : 'Conectar meu WhatsApp'}
        </Button>
      </div>
    </div>
  )
}

import { useState, type ReactNode } from 'react'
import type { FieldValues, Path } from 'react-hook-form'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { copyText } from '@/lib/clipboard'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'
import { useConnection, type ConnectionApi } from './api/connection'

/** What every provider's status has. */
type Status = { connected: boolean }

/** One field of the connect form. A secret is write-only: blank when replacing keeps the stored one. */
export type ConnectionField<F extends FieldValues> = {
  name: Path<F>
  id: string
  label: string
  hint: string
  secret?: boolean
  numeric?: boolean
}

export type ConnectionCardProps<S extends Status, F extends FieldValues, I> = {
  title: string
  description: ReactNode
  api: ConnectionApi<S, I>
  /** The skeleton's height class while the status loads. */
  skeleton: string
  /** What the connection shows above its webhook: the account, and the provider's own blocks. */
  details: (status: S) => ReactNode
  /** What the card shows first, whether connected or not (a provider's own block; null for none). */
  lead?: (status: S) => ReactNode
  webhook: { heading: string; help: ReactNode; copy: (status: S) => { id: string; label: string; value: string }[] }
  /** The dialog that asks before disconnecting, and the toast after. */
  disconnectDialog: { title: string; description: string; done: string }
  form: {
    label: string
    /** A new connection needs every secret; a replacement keeps the stored ones when left blank. */
    schema: (connected: boolean) => FormSchema<F, I>
    /** Whether secrets left blank keep stored ones (default: when connected); a connection made by the one button has none to keep. */
    keeps?: (status: S) => boolean
    values: (status: S) => F
    fields: ConnectionField<F>[]
    submit: string
    failed: string
    done: (status: S) => { title: string; description: string }
  }
  /**
   * A connection with one button (the provider's OAuth, through the
   * operator's application): when it renders something, it comes first and
   * the form folds under 'Configuração manual (avançado)', its submit then
   * named folded (so the button alone carries the provider's 'Conectar …').
   */
  oneButton?: { render: (status: S) => ReactNode; folded: string }
}

/**
 * A card connecting the owner's account at an outside provider (WhatsApp,
 * Mercado Pago, …): the form when not connected, else what the connection
 * shows, the webhook to paste in the provider's panel, 'Desconectar' and
 * 'Trocar dados de acesso'. Secrets are write-only here.
 */
export function ConnectionCard<S extends Status, F extends FieldValues, I>(props: ConnectionCardProps<S, F, I>) {
  const { status, connect, disconnect } = useConnection(props.api)
  return (
    <Card>
      <CardHeader>
        <CardTitle>{props.title}</CardTitle>
        <CardDescription>{props.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.data ? (
          <>
            {props.lead?.(status.data)}
            {/* Keyed by connected: a connection made outside the form (a one-button flow) shows the connection, not the form it left open. */}
            <Connection key={String(status.data.connected)} {...props} status={status.data} connect={connect} disconnect={disconnect} />
          </>
        ) : (
          <Skeleton className={props.skeleton} />
        )}
      </CardContent>
    </Card>
  )
}

type Calls<S, I> = Pick<ReturnType<typeof useConnection<S, I>>, 'connect' | 'disconnect'>
type WithStatus<S extends Status, F extends FieldValues, I> = ConnectionCardProps<S, F, I> & Calls<S, I> & { status: S }

function Connection<S extends Status, F extends FieldValues, I>(props: WithStatus<S, F, I>) {
  const [editing, setEditing] = useState(!props.status.connected)
  if (props.status.connected && !editing) return <Connected {...props} onReplace={() => setEditing(true)} />
  const button = props.oneButton?.render(props.status)
  if (!button) return <ConnectForm {...props} onDone={() => setEditing(false)} />
  return (
    <>
      {button}
      <details className="rounded-md border border-stone-200 p-3 dark:border-stone-800" open={props.status.connected}>
        <summary className="cursor-pointer text-sm font-medium">Configuração manual (avançado)</summary>
        <div className="mt-3">
          <ConnectForm {...props} form={{ ...props.form, submit: props.oneButton?.folded ?? props.form.submit }} onDone={() => setEditing(false)} />
        </div>
      </details>
    </>
  )
}

function Connected<S extends Status, F extends FieldValues, I>({ status, details, webhook, disconnect, disconnectDialog: texts, onReplace }: WithStatus<S, F, I> & { onReplace: () => void }) {
  const [asking, setAsking] = useState(false)
  const copy = webhook.copy(status)
  return (
    <>
      {details(status)}
      {copy.length > 0 ? (
        <div className="grid gap-2">
          <h3 className="text-sm font-medium">{webhook.heading}</h3>
          <p className="text-xs text-stone-600 dark:text-stone-400">{webhook.help}</p>
          {copy.map((c) => (
            <Copyable key={c.id} {...c} />
          ))}
        </div>
      ) : null}
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
        title={texts.title}
        description={texts.description}
        action="Desconectar"
        destructive
        onDismiss={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          disconnect.mutate(undefined, {
            onSuccess: () => toast.success(texts.done),
            onError: () => toast.error('Erro', { description: 'Não foi possível desconectar. Tente novamente.' }),
          })
        }}
      />
    </>
  )
}

/** A read-only value with a button that copies it (a webhook's URL, a verify token). */
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

function ConnectForm<S extends Status, F extends FieldValues, I>({ status, connect, form: spec, onDone }: WithStatus<S, F, I> & { onDone: () => void }) {
  const keeps = spec.keeps?.(status) ?? status.connected
  const form = useSchemaForm(spec.schema(keeps), spec.values(status))
  const { errors } = form.formState
  const keep = keeps ? ' Deixe em branco para manter o atual.' : ''
  const onSubmit = form.handleSubmit(
    (body) =>
      connect.mutate(body, {
        onSuccess: (st) => {
          const done = spec.done(st)
          toast.success(done.title, { description: done.description })
          onDone()
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, spec.failed) }),
      }),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label={spec.label}>
      {spec.fields.map((f) => (
        <Field key={f.id} id={f.id} label={f.label} error={errors[f.name]?.message as string | undefined} hint={f.secret ? `${f.hint}${keep}` : f.hint}>
          <Input id={f.id} type={f.secret ? 'password' : undefined} inputMode={f.numeric ? 'numeric' : undefined} autoComplete="off" {...form.register(f.name)} />
        </Field>
      ))}
      <FormError message={serverError(form)} />
      <div className="flex flex-wrap justify-end gap-2">
        {status.connected ? (
          <Button type="button" variant="outline" onClick={onDone}>
            Cancelar
          </Button>
        ) : null}
        <Button type="submit" disabled={connect.isPending}>
          {connect.isPending ? 'Conectando...' : spec.submit}
        </Button>
      </div>
    </form>
  )
}

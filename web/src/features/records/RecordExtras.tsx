import { useState } from 'react'
import { Link } from 'react-router'
import { Printer } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { usePlacedSwitch } from '@/lib/placed-switch'
import { errorMessage } from '@/lib/api/client'
import { useIsProfessional } from '@/lib/auth'
import { todayLocal } from '@/lib/dates'
import { brDate } from '@/lib/format'
import { useAddDocument, useRecordTeam, useSetClientCopy, useShareSummary, type HealthRecord } from './api/records'
import { instantText } from './signed'

// Issue 43 §1–2 on the record page: the register of documents issued, the
// summaries the author shares, and the client's copy.

/** A colleague of the team the page can name: to share a summary with, or to ask a co-signature of. */
export type Colleague = { id: string; name: string }

/**
 * The team as the record page can name it (GET /api/records/team): the
 * author's active colleagues by name — the same for the owner writing as one
 * of the team and for a professional signed in as themself.
 */
export function useColleagues(record: HealthRecord | null): { colleagues: Colleague[]; names: Map<string, string>; ready: boolean } {
  const team = useRecordTeam(record !== null)
  const colleagues = team.data?.colleagues ?? []
  return { colleagues, names: new Map(colleagues.map((p) => [p.id, p.name])), ready: team.data !== undefined }
}

/** 'Documentos emitidos': the register (never edited) and the form to add to it. */
export function Documents({ record, client }: { record: HealthRecord; client: string }) {
  const add = useAddDocument(client, record.id)
  const [issuedOn, setIssuedOn] = useState(todayLocal())
  const [purpose, setPurpose] = useState('')
  const [recipient, setRecipient] = useState('')
  const [errors, setErrors] = useState<{ issuedOn?: string; purpose?: string; recipient?: string; server?: string }>({})
  const documents = record.documents ?? []

  function submit(e: React.FormEvent) {
    e.preventDefault()
    const next = {
      issuedOn: issuedOn === '' ? 'Informe a data de emissão.' : issuedOn > todayLocal() ? 'A data de emissão não pode ser futura.' : undefined,
      purpose: purpose.trim() === '' ? 'Informe a finalidade.' : undefined,
      recipient: recipient.trim() === '' ? 'Informe o destinatário.' : undefined,
    }
    setErrors(next)
    if (next.issuedOn || next.purpose || next.recipient) return
    add.mutate(
      { issuedOn, purpose: purpose.trim(), recipient: recipient.trim() },
      {
        onSuccess: () => {
          toast.success('Documento registrado')
          setPurpose('')
          setRecipient('')
          setIssuedOn(todayLocal())
        },
        onError: (err) => setErrors({ server: errorMessage(err, 'Não foi possível registrar o documento. Tente novamente.') }),
      },
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Documentos emitidos</CardTitle>
        <CardDescription>Declarações, atestados, laudos e relatórios entregues. O registro não pode ser editado nem apagado.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {documents.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum documento registrado.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Documentos emitidos">
            {documents.map((d) => (
              <li key={d.id} className="grid gap-1 border-b border-stone-100 pb-3 text-sm last:border-0 last:pb-0 dark:border-stone-800">
                <p className="font-medium">{brDate(d.issuedOn)}</p>
                <p className="wrap-break-word">
                  <span className="text-stone-600 dark:text-stone-400">Finalidade:</span> {d.purpose}
                </p>
                <p className="wrap-break-word">
                  <span className="text-stone-600 dark:text-stone-400">Destinatário:</span> {d.recipient}
                </p>
                <p className="text-xs text-stone-600 dark:text-stone-400">{d.signature}</p>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={submit} className="grid gap-4 border-t border-stone-200 pt-4 dark:border-stone-800" noValidate aria-label="Registrar documento">
          <h3 className="text-base font-semibold">Registrar documento</h3>
          <Field id="document-date" label="Data de emissão" error={errors.issuedOn}>
            <Input id="document-date" type="date" className="sm:w-48" value={issuedOn} max={todayLocal()} onChange={(e) => setIssuedOn(e.target.value)} />
          </Field>
          <Field id="document-purpose" label="Finalidade" error={errors.purpose}>
            <Input id="document-purpose" value={purpose} maxLength={300} onChange={(e) => setPurpose(e.target.value)} />
          </Field>
          <Field id="document-recipient" label="Destinatário" error={errors.recipient}>
            <Input id="document-recipient" value={recipient} maxLength={200} onChange={(e) => setRecipient(e.target.value)} />
          </Field>
          <FormError message={errors.server} />
          <div className="flex justify-end">
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Registrando...' : 'Registrar'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

const OWNER = 'owner'

/**
 * 'Resumo compartilhado': the summary the author chooses to show the
 * practice's owner or a named colleague — never the notes themselves.
 */
export function SharedSummary({
  record,
  client,
  colleagues,
  names,
  ready,
}: {
  record: HealthRecord
  client: string
  colleagues: Colleague[]
  names: Map<string, string>
  ready: boolean
}) {
  const professional = useIsProfessional()
  const share = useShareSummary(client, record.id)
  const shares = record.shares ?? []
  // The owner reads what is shared with 'owner': offered to a professional, never to the owner themself.
  const readers = [...(professional ? [{ id: OWNER, name: 'Titular da agenda' }] : []), ...colleagues]
  const [picked, setPicked] = useState('')
  // The team loads after the record: until one is picked, the first reader offered.
  const reader = readers.some((r) => r.id === picked) ? picked : (readers[0]?.id ?? '')
  const current = shares.find((s) => s.reader === reader)
  // null: untouched, the text shared with this reader so far.
  const [draft, setDraft] = useState<string | null>(null)
  const summary = draft ?? current?.summary ?? ''
  const [error, setError] = useState<string>()
  const readerName = (id: string) => (id === OWNER ? 'Titular da agenda' : (names.get(id) ?? 'Profissional da equipe'))

  function choose(id: string) {
    setPicked(id)
    setDraft(null)
    setError(undefined)
  }

  function send(text: string) {
    share.mutate(
      { reader, summary: text },
      {
        onSuccess: () => {
          toast.success(text === '' ? `Compartilhamento com ${readerName(reader)} encerrado` : `Resumo compartilhado com ${readerName(reader)}`)
          setDraft(null)
        },
        onError: (err) => setError(errorMessage(err, 'Não foi possível salvar o compartilhamento. Tente novamente.')),
      },
    )
  }

  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (summary.trim() === '') {
      setError('Escreva o resumo.')
      return
    }
    setError(undefined)
    send(summary.trim())
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Resumo compartilhado</CardTitle>
        <CardDescription>Só este resumo é mostrado; as anotações continuam só suas.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {shares.length > 0 ? (
          <ul className="grid gap-3" aria-label="Resumos compartilhados">
            {shares.map((s) => (
              <li key={s.reader} className="grid gap-1 text-sm">
                <p className="font-medium">Com {readerName(s.reader)}</p>
                <p className="whitespace-pre-wrap wrap-break-word">{s.summary}</p>
                <p className="text-xs text-stone-600 dark:text-stone-400">Atualizado em {instantText(s.updatedAt, record.timeZone)}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum resumo compartilhado.</p>
        )}
        {!ready ? null : readers.length === 0 ? (
          <p className="text-sm">A equipe não tem outro profissional com quem compartilhar.</p>
        ) : (
          <form onSubmit={submit} className="grid gap-4 border-t border-stone-200 pt-4 dark:border-stone-800" noValidate aria-label="Compartilhar resumo">
            <Field id="share-reader" label="Compartilhar com">
              <Select id="share-reader" value={reader} onChange={(e) => choose(e.target.value)}>
                {readers.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="share-summary" label="Resumo">
              <Textarea id="share-summary" rows={5} maxLength={5000} value={summary} onChange={(e) => setDraft(e.target.value)} />
            </Field>
            <FormError message={error} />
            <div className="flex flex-wrap justify-end gap-2">
              {current ? (
                <Button type="button" variant="outline" disabled={share.isPending} onClick={() => send('')}>
                  Parar de compartilhar
                </Button>
              ) : null}
              <Button type="submit" disabled={share.isPending}>
                {share.isPending ? 'Salvando...' : 'Compartilhar'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  )
}

/**
 * The client's copy (CFP 001/2009 art. 5 II): whether the client reads the
 * prontuário part through their private link, and the printable copy.
 */
export function ClientCopy({ record, client }: { record: HealthRecord; client: string }) {
  const set = useSetClientCopy(client, record.id)
  const placed = usePlacedSwitch(record.clientCopy)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Cópia para o cliente</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <div className="grid gap-1">
          <label className="flex items-start gap-3">
            <input
              type="checkbox"
              role="switch"
              className="mt-0.5 size-4 shrink-0 accent-brand-700"
              // While saving, the switch shows where the professional put it.
              checked={placed.checked}
              disabled={placed.saving}
              aria-describedby="client-copy-hint"
              onChange={(e) => {
                placed.place(e.target.checked)
                set.mutate(e.target.checked, {
                  onSuccess: (r) => toast.success(r.clientCopy ? 'O cliente já pode ver o prontuário pelo link dele' : 'O cliente não vê mais o prontuário pelo link'),
                  onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível salvar. Tente novamente.') }),
                  onSettled: placed.settle,
                })
              }}
            />
            <span className="font-medium">O cliente pode ver o prontuário pelo link dele</span>
          </label>
          <p id="client-copy-hint" className="text-stone-600 dark:text-stone-400">
            Só a parte de prontuário, nunca os registros sigilosos.
          </p>
        </div>
        <div>
          <Button asChild variant="outline">
            <Link to={`/clients/${encodeURIComponent(client)}/prontuario/copia?record=${encodeURIComponent(record.id)}`}>
              <Printer aria-hidden /> Cópia para o cliente
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}

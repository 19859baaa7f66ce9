import { useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { PageSpinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage } from '@/lib/api/client'
import { clientPathOf } from '@/components/client-link'
import { todayLocal } from '@/lib/dates'
import { brDate } from '@/lib/format'
import {
  useCorrectEntry,
  useRecord,
  useRecordClient,
  useRecordLog,
  useRecordTemplates,
  useRequestCosign,
  useWriteEntry,
  type EntryInput,
  type HealthRecord,
  type RecordEntry,
} from './api/records'
import { ClientCopy, Documents, SharedSummary, useColleagues, type Colleague } from './RecordExtras'
import { RecordFiles } from './RecordFiles'
import { RecordsError } from './RecordsError'
import { instantText, kindLabel, Signed, templateLabel } from './signed'

type Kind = EntryInput['kind']
type Template = EntryInput['template']

const actionLabel: Record<string, string> = {
  read: 'leu',
  write: 'escreveu',
  correct: 'corrigiu',
  export: 'exportou',
  print: 'imprimiu',
  share: 'compartilhou',
  unshare: 'parou de compartilhar',
  'client-read': 'leu a cópia do prontuário',
  document: 'registrou um documento',
  'cosign-request': 'pediu coassinatura',
  cosign: 'coassinou',
  'read-shared': 'leu o resumo compartilhado',
  destroy: 'destruiu',
}

/**
 * The health record of a client (issue 43 §1): the acting professional's
 * entries, each signed, corrected only by a new signed version with its
 * reason, and the log of who read and wrote it. The address carries the
 * client's opaque reference (one of their appointments), never a contact.
 */
export default function RecordPage() {
  const { key = '' } = useParams()
  const [params] = useSearchParams()
  const appointmentId = params.get('appointment') ?? ''
  const client = useRecordClient(key)
  const record = useRecord(key)
  const name = record.data?.client.name || client.data?.client.name || ''
  const back = <BackLink to={clientPathOf(key)}>Voltar para o cliente</BackLink>

  if (record.isError) {
    return (
      <div className="mx-auto grid max-w-3xl gap-6">
        {back}
        <h1 className="text-2xl font-bold tracking-tight wrap-break-word">{name ? `Prontuário de ${name}` : 'Prontuário'}</h1>
        <RecordsError error={record.error} fallback="Não foi possível abrir o prontuário. Tente novamente." />
      </div>
    )
  }
  // Opened from an appointment: its date is known before the form starts.
  if (record.isLoading || (appointmentId && client.isLoading)) return <PageSpinner />
  const appointmentDate = appointmentId ? client.data?.appointments.find((a) => a.id === appointmentId)?.date : undefined
  const rec = record.data ?? null
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      {back}
      <h1 className="text-2xl font-bold tracking-tight wrap-break-word">{name ? `Prontuário de ${name}` : 'Prontuário'}</h1>
      <NewEntry
        client={key}
        appointmentId={appointmentDate ? appointmentId : ''}
        appointmentDate={appointmentDate}
      />
      <RecordBody record={rec} client={key} />
    </div>
  )
}

/** 'Nova anotação': kind, template, the session's date and the text, signed on save. */
function NewEntry({ client, appointmentId, appointmentDate }: { client: string; appointmentId: string; appointmentDate?: string }) {
  const templates = useRecordTemplates()
  const write = useWriteEntry(client)
  const [kind, setKind] = useState<Kind>('prontuario')
  const [template, setTemplate] = useState<Template>('livre')
  const [date, setDate] = useState(appointmentDate ?? todayLocal())
  const [body, setBody] = useState('')
  // The text the last chosen template filled in: replaced by the next one's while untouched.
  const [filled, setFilled] = useState('')
  const [error, setError] = useState<string>()

  function choose(t: Template) {
    setTemplate(t)
    const text = templates.data?.find((x) => x.template === t)?.body ?? ''
    if (body.trim() === '' || body === filled) {
      setBody(text)
      setFilled(text)
    }
  }

  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (body.trim() === '') {
      setError('Escreva a anotação.')
      return
    }
    if (date === '') {
      setError('Informe a data do atendimento.')
      return
    }
    setError(undefined)
    const input: EntryInput = { client, kind, template, sessionDate: date, body }
    // The appointment's own date: the server checks it has begun and takes its date.
    if (appointmentId && date === appointmentDate) input.appointmentId = appointmentId
    write.mutate(input, {
      onSuccess: () => {
        toast.success('Anotação salva')
        // The next entry starts again from the chosen template.
        const text = templates.data?.find((x) => x.template === template)?.body ?? ''
        setBody(text)
        setFilled(text)
      },
      onError: (err) => setError(errorMessage(err, 'Não foi possível salvar a anotação. Tente novamente.')),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Nova anotação</CardTitle>
        <CardDescription>Cada anotação é assinada com o seu nome e registro no conselho, e nunca é apagada: uma correção vira uma nova versão.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4" noValidate aria-label="Nova anotação">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Tipo</legend>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="kind" value="prontuario" checked={kind === 'prontuario'} onChange={() => setKind('prontuario')} className="mt-1" />
              Prontuário — pode ser mostrado ao cliente
            </label>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="kind" value="sigiloso" checked={kind === 'sigiloso'} onChange={() => setKind('sigiloso')} className="mt-1" />
              Registro sigiloso — só você lê
            </label>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="entry-template" label="Modelo">
              {/* Until the practice's templates arrive, choosing one would fill nothing: the choice waits for them. */}
              <Select id="entry-template" value={template} disabled={templates.isLoading} onChange={(e) => choose(e.target.value as Template)}>
                {(['anamnese', 'evolucao', 'encerramento', 'livre'] as const).map((t) => (
                  <option key={t} value={t}>
                    {templateLabel[t]}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="entry-date" label="Data do atendimento">
              <Input id="entry-date" type="date" value={date} max={todayLocal()} onChange={(e) => setDate(e.target.value)} />
            </Field>
          </div>
          <Field id="entry-body" label="Anotação">
            <Textarea id="entry-body" rows={10} value={body} onChange={(e) => setBody(e.target.value)} />
          </Field>
          <FormError message={error} />
          <div className="flex justify-end">
            <Button type="submit" disabled={write.isPending}>
              {write.isPending ? 'Salvando...' : 'Assinar e salvar'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

/**
 * The history, then (once the record exists) its documents issued, its
 * attached files, the shared summaries and the client's copy, in that order.
 */
function RecordBody({ record, client }: { record: HealthRecord | null; client: string }) {
  const { colleagues, names, ready } = useColleagues(record)
  if (!record || record.entries.length === 0) return <p className="text-sm text-stone-600 dark:text-stone-400">Nenhuma anotação ainda.</p>
  return (
    <>
      <History record={record} client={client} colleagues={colleagues} names={names} />
      <Documents record={record} client={client} />
      <RecordFiles record={record} client={client} />
      <SharedSummary record={record} client={client} colleagues={colleagues} names={names} ready={ready} />
      <ClientCopy record={record} client={client} />
    </>
  )
}

/** The record's entries, newest session first, each with its earlier versions and a correction form. */
function History({ record, client, colleagues, names }: { record: HealthRecord; client: string; colleagues: Colleague[]; names: Map<string, string> }) {
  return (
    <section className="grid gap-4" aria-label="Anotações">
      <h2 className="text-lg font-semibold">Anotações</h2>
      <ul className="grid gap-4">
        {record.entries.map((versions) => (
          <li key={versions[0].entryId}>
            <EntryCard versions={versions} client={client} colleagues={colleagues} names={names} />
          </li>
        ))}
      </ul>
      <AccessLog id={record.id} />
    </section>
  )
}

function EntryCard({ versions, client, colleagues, names }: { versions: RecordEntry[]; client: string; colleagues: Colleague[]; names: Map<string, string> }) {
  const [latest, ...older] = versions
  const [correcting, setCorrecting] = useState(false)
  return (
    <Card className="grid gap-3 p-4">
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        <span className="font-semibold">{kindLabel[latest.kind] ?? latest.kind}</span>
        <span>{templateLabel[latest.template] ?? latest.template}</span>
        <span>Atendimento em {brDate(latest.sessionDate)}</span>
      </p>
      {correcting ? (
        <Correction entry={latest} client={client} onDone={() => setCorrecting(false)} />
      ) : (
        <>
          <p className="text-sm whitespace-pre-wrap wrap-break-word">{latest.body}</p>
          <Signed entry={latest} />
          <Cosign entry={latest} client={client} colleagues={colleagues} names={names} />
          <div>
            <Button variant="outline" size="sm" onClick={() => setCorrecting(true)}>
              Corrigir
            </Button>
          </div>
        </>
      )}
      {older.length > 0 ? (
        <details className="rounded-md border border-stone-200 p-2 text-sm dark:border-stone-800">
          <summary className="cursor-pointer">Versões anteriores ({older.length})</summary>
          <ul className="mt-2 grid gap-3">
            {older.map((v) => (
              <li key={v.id} className="grid gap-1 border-t border-stone-100 pt-2 dark:border-stone-800">
                <p className="whitespace-pre-wrap wrap-break-word">{v.body}</p>
                <Signed entry={v} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  )
}

/**
 * A supervisor's co-signature of the entry's latest version (a teaching
 * clinic): asked of a colleague the page can list, awaited, then shown
 * under the signature line (by Signed).
 */
function Cosign({ entry, client, colleagues, names }: { entry: RecordEntry; client: string; colleagues: Colleague[]; names: Map<string, string> }) {
  const ask = useRequestCosign(client)
  const [asking, setAsking] = useState(false)
  const [picked, setPicked] = useState('')
  const [error, setError] = useState<string>()
  if (entry.cosign?.signed) return null
  if (entry.cosign) {
    const who = names.get(entry.cosign.supervisorId)
    return <p className="text-xs font-medium text-amber-800 dark:text-amber-300">{who ? `Aguardando coassinatura de ${who}` : 'Aguardando coassinatura'}</p>
  }
  // No colleague the page can list: nobody to ask.
  if (colleagues.length === 0) return null
  if (!asking)
    return (
      <div>
        <Button variant="outline" size="sm" onClick={() => setAsking(true)}>
          Pedir coassinatura
        </Button>
      </div>
    )
  const supervisor = colleagues.some((c) => c.id === picked) ? picked : colleagues[0].id
  const id = `cosign-${entry.id}`
  function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(undefined)
    ask.mutate(
      { versionId: entry.id, supervisorId: supervisor },
      {
        onSuccess: () => {
          toast.success('Coassinatura pedida')
          setAsking(false)
        },
        onError: (err) => setError(errorMessage(err, 'Não foi possível pedir a coassinatura. Tente novamente.')),
      },
    )
  }
  return (
    <form onSubmit={submit} className="grid gap-3" noValidate aria-label="Pedir coassinatura">
      <Field id={id} label="Supervisor(a)">
        <Select id={id} value={supervisor} onChange={(e) => setPicked(e.target.value)}>
          {colleagues.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </Field>
      <FormError message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={() => setAsking(false)}>
          Cancelar
        </Button>
        <Button type="submit" disabled={ask.isPending}>
          {ask.isPending ? 'Pedindo...' : 'Pedir'}
        </Button>
      </div>
    </form>
  )
}

/** 'Corrigir': the text to correct and the reason, signed as a new version. */
function Correction({ entry, client, onDone }: { entry: RecordEntry; client: string; onDone: () => void }) {
  const correct = useCorrectEntry(client)
  const [body, setBody] = useState(entry.body)
  const [reason, setReason] = useState('')
  const [errors, setErrors] = useState<{ body?: string; reason?: string; server?: string }>({})
  const id = `fix-${entry.entryId}`
  function submit(e: React.FormEvent) {
    e.preventDefault()
    const next = {
      body: body.trim() === '' ? 'Escreva a anotação.' : undefined,
      reason: reason.trim() === '' ? 'Diga o motivo da correção.' : undefined,
    }
    setErrors(next)
    if (next.body || next.reason) return
    correct.mutate(
      { entryId: entry.entryId, body, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success('Correção salva')
          onDone()
        },
        onError: (err) => setErrors({ server: errorMessage(err, 'Não foi possível salvar a correção. Tente novamente.') }),
      },
    )
  }
  return (
    <form onSubmit={submit} className="grid gap-3" noValidate aria-label="Corrigir anotação">
      <Field id={`${id}-body`} label="Anotação corrigida" error={errors.body}>
        <Textarea id={`${id}-body`} rows={8} value={body} onChange={(e) => setBody(e.target.value)} />
      </Field>
      <Field id={`${id}-reason`} label="Motivo da correção" error={errors.reason}>
        <Input id={`${id}-reason`} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </Field>
      <FormError message={errors.server} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" disabled={correct.isPending}>
          {correct.isPending ? 'Salvando...' : 'Assinar correção'}
        </Button>
      </div>
    </form>
  )
}

/** 'Registro de acessos': read from the server only when opened. */
function AccessLog({ id }: { id: string }) {
  const [open, setOpen] = useState(false)
  const log = useRecordLog(id, open)
  return (
    <details className="rounded-md border border-stone-200 p-2 text-sm dark:border-stone-800" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer">Registro de acessos</summary>
      {log.isLoading ? <p className="mt-2">Carregando...</p> : null}
      {log.isError ? <p className="mt-2">{errorMessage(log.error, 'Não foi possível carregar o registro de acessos.')}</p> : null}
      {log.data ? (
        <ul className="mt-2 grid gap-1" aria-label="Registro de acessos">
          {log.data.log.map((l, i) => (
            <li key={i} className="wrap-break-word">
              {instantText(l.at, log.data.timeZone)} — {l.who} — {actionLabel[l.action] ?? l.action}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  )
}

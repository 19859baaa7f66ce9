import { cloneElement, useState, type FormEvent, type ReactElement } from 'react'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { useJoinWaitlist } from './api/waitlist'
import { Button } from '@/components/ui/button'
import { addDays } from '@/lib/dates'
import { brDate } from '@/lib/format'

type Part = Schemas['WaitlistJoin']['partOfDay']

const parts: { value: Part; label: string }[] = [
  { value: 'qualquer', label: 'Qualquer horário' },
  { value: 'manha', label: 'Manhã (até 12h)' },
  { value: 'tarde', label: 'Tarde (12h às 18h)' },
  { value: 'noite', label: 'Noite (a partir das 18h)' },
]

/**
 * "Entrar na lista de espera" (issue 28, point 3): the client's name and a
 * phone and/or e-mail, one date or a range of up to 14, and a part of the
 * day. The server checks the contacts with the booking's own rule
 * (booking.ValidateContact) and its pt-BR errors are shown here; the page
 * shares no form code with the booking page, whose chunks it would
 * otherwise split (the public page budget).
 */
export default function WaitlistForm(props: {
  username: string
  serviceId: string
  professionalId: string
  firstDate: string
  today: string
  lastDate?: string
  /** What the client already typed on the booking form. */
  typed?: { name?: string; email?: string; phone?: string }
}) {
  const [name, setName] = useState(props.typed?.name ?? '')
  const [email, setEmail] = useState(props.typed?.email ?? '')
  const [phone, setPhone] = useState(props.typed?.phone ?? '')
  const [first, setFirst] = useState(props.firstDate || props.today)
  const [last, setLast] = useState(props.firstDate || props.today)
  const [part, setPart] = useState<Part>('qualquer')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failed, setFailed] = useState('')
  const join = useJoinWaitlist()
  const busy = join.isPending
  const joined = join.data
  const maxLast = addDays(first, 13)

  function submit(e: FormEvent) {
    e.preventDefault()
    const found: Record<string, string> = {}
    if (!name.trim()) found.name = 'Informe seu nome completo.'
    if (!email.trim() && !phone.trim()) found.email = 'Informe um telefone ou e-mail para contato.'
    if (!first) found.first = 'Escolha a data.'
    else if (last && (last < first || last > maxLast)) found.last = 'Escolha uma data final até 14 dias depois da primeira.'
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setFailed('')
    const body = { serviceId: props.serviceId, professionalId: props.professionalId, firstDate: first, lastDate: last || first, partOfDay: part, clientName: name.trim(), clientEmail: email.trim(), clientPhone: phone.trim() }
    join.mutate({ username: props.username, body }, { onError: (err) => setFailed(errorMessage(err, 'Não foi possível entrar na lista de espera. Tente novamente.')) })
  }

  if (joined) {
    const when = joined.firstDate === joined.lastDate ? brDate(joined.firstDate) : `${brDate(joined.firstDate)} a ${brDate(joined.lastDate)}`
    return (
      <div role="status" className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm dark:border-brand-800 dark:bg-brand-900/30">
        <p className="font-semibold">Você está na lista de espera</p>
        <p className="mt-1">
          {joined.serviceName}, {when}. Se um horário vagar, {noticeText(joined.notice, joined.ownerName, phone.trim() !== '')}, por ordem de chegada.
        </p>
        <a className="mt-2 inline-block font-medium text-brand-700 underline dark:text-brand-200" href={`/lista-de-espera/${joined.token}`}>
          Ver ou sair da lista de espera
        </a>
      </div>
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Lista de espera" className="grid gap-3">
      <Field id="wl-name" label="Nome completo *" error={errors.name}>
        <input className={box} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Telefone ou e-mail *</legend>
        <p className="text-xs text-stone-500 dark:text-stone-400">Informe pelo menos um: é por ele que você fica sabendo quando um horário vagar.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="wl-email" label="E-mail" error={errors.email}>
            <input className={box} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field id="wl-phone" label="Telefone" error={errors.phone}>
            <input className={box} type="tel" autoComplete="tel" placeholder="(11) 99999-9999" value={phone} onChange={(e) => setPhone(e.target.value)} />
          </Field>
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="wl-first" label="A partir de *" error={errors.first}>
          <input className={box} type="date" min={props.today} max={props.lastDate} value={first} onChange={(e) => setFirst(e.target.value)} />
        </Field>
        <Field id="wl-last" label="Até" hint="Até 14 dias seguidos." error={errors.last}>
          <input className={box} type="date" min={first} max={maxLast} value={last} onChange={(e) => setLast(e.target.value)} />
        </Field>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Parte do dia</legend>
        <div className="grid grid-cols-2 gap-2">
          {parts.map((p) => (
            <label key={p.value} className="flex min-h-11 items-center gap-2 rounded-lg border border-stone-300 px-3 text-sm dark:border-stone-700">
              <input type="radio" name="wl-part" value={p.value} checked={part === p.value} onChange={() => setPart(p.value)} />
              {p.label}
            </label>
          ))}
        </div>
      </fieldset>
      {failed ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
          {failed}
        </p>
      ) : null}
      <Button type="submit" size="lg" className="mt-3 w-full" disabled={busy}>
        {busy ? 'Enviando...' : 'Entrar na lista de espera'}
      </Button>
    </form>
  )
}

/** How a freed time reaches the client, as the server will send it. */
function noticeText(notice: Schemas['WaitlistJoined']['notice'], ownerName: string, gavePhone: boolean): string {
  if (notice === 'whatsapp') return 'avisamos você por WhatsApp'
  if (notice === 'email') return 'avisamos você por e-mail'
  return `${ownerName} entra em contato pelo ${gavePhone ? 'telefone' : 'e-mail'} informado`
}

const box = 'h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900'

/** A labelled field: its hint and error under it, announced with the control (aria-describedby on the control's id). */
function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ReactElement<{ 'aria-describedby'?: string; 'aria-invalid'?: boolean; id?: string }> }) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {cloneElement(children, { id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-stone-500 dark:text-stone-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  )
}

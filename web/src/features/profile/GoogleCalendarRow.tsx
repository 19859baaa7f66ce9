import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { FormError } from '@/components/ui/field'
import { Select } from '@/components/ui/select'
import { errorMessage } from '@/lib/api/client'
import { failure, type BusyCalendar } from '@/lib/api/endpoints/calendars'
import { startGoogle, useChooseGoogle, useChooseGoogleWrite, useDisconnectGoogle, useGoogleCalendars } from '@/lib/api/endpoints/google-calendars'
import { OnFailureField, SourceFreshness } from './SourceFreshness'
import { DisconnectSource } from './DisconnectSource'

/**
 * A professional's Google account on the 'Agenda pessoal' card (issue 42 §3):
 * 'Conectar Google Agenda' sends the owner to Google's consent page (they come
 * back at /profile/google); once connected, the account's e-mail, when it was
 * last read, which of its calendars count as busy, and 'Desconectar Google'.
 */
export function GoogleCalendarRow({ professionalId, name, cal }: { professionalId: string; name: string; cal?: BusyCalendar }) {
  const [choosing, setChoosing] = useState(false)
  const [starting, setStarting] = useState(false)
  const [error, setError] = useState('')
  if (!cal) {
    const connect = () => {
      setStarting(true)
      setError('')
      startGoogle(professionalId)
        .then((st) => window.location.assign(st.url))
        .catch((e: unknown) => {
          setStarting(false)
          setError(errorMessage(e, 'Não foi possível abrir o Google. Tente novamente.'))
        })
    }
    return (
      <div className="grid gap-1">
        <Button type="button" size="sm" variant="outline" className="justify-self-start" disabled={starting} onClick={connect} aria-label={`Conectar Google Agenda — ${name}`}>
          {starting ? 'Abrindo o Google...' : 'Conectar Google Agenda'}
        </Button>
        <FormError message={error} />
      </div>
    )
  }
  const failed = failure(cal)
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 text-sm">
          <SourceFreshness
            cal={cal}
            where={`Google Agenda: ${cal.host}`}
            extra={cal.writeCalendar ? ` · recebe os agendamentos na agenda ${cal.writeCalendar === cal.host ? 'principal' : 'escolhida'}` : ''}
          />
        </span>
        {!choosing ? (
          <span className="flex flex-wrap gap-2">
            {failed.startsWith('O Google recusou') ? (
              <ReconnectButton professionalId={professionalId} name={name} />
            ) : (
              <Button type="button" size="sm" variant="outline" onClick={() => setChoosing(true)} aria-label={`Escolher agendas do Google — ${name}`}>
                Escolher agendas
              </Button>
            )}
            <DisconnectGoogle professionalId={professionalId} name={name} />
          </span>
        ) : null}
      </div>
      {choosing ? <ChooseCalendars professionalId={professionalId} name={name} cal={cal} onDone={() => setChoosing(false)} /> : null}
    </div>
  )
}

function ReconnectButton({ professionalId, name }: { professionalId: string; name: string }) {
  const [starting, setStarting] = useState(false)
  return (
    <Button
      type="button"
      size="sm"
      disabled={starting}
      aria-label={`Conectar Google Agenda de novo — ${name}`}
      onClick={() => {
        setStarting(true)
        startGoogle(professionalId)
          .then((st) => window.location.assign(st.url))
          .catch((e: unknown) => {
            setStarting(false)
            toast.error('Erro', { description: errorMessage(e, 'Não foi possível abrir o Google. Tente novamente.') })
          })
      }}
    >
      Conectar de novo
    </Button>
  )
}

/** The account's calendars, ticked when their events count as busy. */
function ChooseCalendars({ professionalId, name, cal, onDone }: { professionalId: string; name: string; cal: BusyCalendar; onDone: () => void }) {
  const account = useGoogleCalendars(professionalId)
  const save = useChooseGoogle()
  const saveWrite = useChooseGoogleWrite()
  const [picked, setPicked] = useState<string[] | null>(null)
  const [write, setWrite] = useState(cal.writeCalendar)
  const [onFailure, setOnFailure] = useState<'keep' | 'drop'>(cal.onFailure as 'keep' | 'drop')
  const [error, setError] = useState('')
  if (account.isPending) return <p className="text-sm text-stone-600 dark:text-stone-400">Buscando as agendas no Google…</p>
  if (account.isError)
    return (
      <div className="grid gap-2">
        <FormError message={errorMessage(account.error, 'Não foi possível buscar as agendas no Google. Tente novamente.')} />
        <Button type="button" size="sm" variant="outline" className="justify-self-end" onClick={onDone}>
          Fechar
        </Button>
      </div>
    )
  const chosen = picked ?? account.data.calendars.filter((c) => c.busy).map((c) => c.id)
  const id = `google-${professionalId}`
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    if (chosen.length === 0) {
      setError('Escolha ao menos uma agenda.')
      return
    }
    setError('')
    save
      .mutateAsync({ professionalId, calendars: chosen, onFailure })
      .then(() => (write !== cal.writeCalendar ? saveWrite.mutateAsync({ professionalId, calendar: write }) : undefined))
      .then(() => {
        toast.success('Agendas salvas', {
          description: write
            ? 'Vamos ler os horários ocupados agora e a cada poucos minutos, e gravar os agendamentos na agenda escolhida.'
            : 'Vamos ler os horários ocupados agora e a cada poucos minutos.',
        })
        onDone()
      })
      .catch((err: unknown) => setError(errorMessage(err, 'Não foi possível salvar. Tente novamente.')))
  }
  const writable = account.data.calendars.filter((c) => c.writable)
  return (
    <form onSubmit={submit} className="grid min-w-0 gap-3" noValidate aria-label={`Agendas do Google — ${name}`}>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Agendas cujos compromissos contam como ocupado</legend>
        {account.data.calendars.map((c) => (
          <label key={c.id} className="flex items-start gap-2 text-sm break-all">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-brand-700"
              checked={chosen.includes(c.id)}
              onChange={(ev) => setPicked(ev.target.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id))}
            />
            <span>
              {c.summary || c.id}
              {c.primary ? ' (principal)' : ''}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid gap-1">
        <label htmlFor={`${id}-write`} className="text-sm font-medium">
          Agenda que recebe os agendamentos
        </label>
        <Select id={`${id}-write`} className="w-full min-w-0" value={write} onChange={(ev) => setWrite(ev.target.value)}>
          <option value="">Nenhuma (não gravar os agendamentos)</option>
          {writable.map((c) => (
            <option key={c.id} value={c.id}>
              {(c.summary || c.id) + (c.primary ? ' (principal)' : '')}
            </option>
          ))}
        </Select>
        <span className="text-xs text-stone-600 dark:text-stone-400">Só aparecem as agendas em que a conta pode criar eventos.</span>
      </div>
      <OnFailureField id={`${id}-failure`} label="Se o Google não puder ser lido" value={onFailure} onChange={(ev) => setOnFailure(ev.target.value as 'keep' | 'drop')} />
      <FormError message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" disabled={save.isPending || saveWrite.isPending}>
          {save.isPending || saveWrite.isPending ? 'Salvando...' : 'Salvar agendas'}
        </Button>
      </div>
    </form>
  )
}

function DisconnectGoogle({ professionalId, name }: { professionalId: string; name: string }) {
  const remove = useDisconnectGoogle()
  return (
    <DisconnectSource
      professionalId={professionalId}
      label={`Desconectar Google Agenda — ${name}`}
      question={`Desconectar a Google Agenda de ${name}?`}
      description="O acesso é revogado no Google e os horários ocupados dela deixam de valer na sua página na hora. Os eventos que o Agendei já gravou ficam na agenda, sem novas atualizações."
      done={{ title: 'Google Agenda desconectada', description: 'O acesso foi revogado no Google e os horários ocupados dela deixaram de valer.' }}
      remove={remove}
    >
      Desconectar Google
    </DisconnectSource>
  )
}

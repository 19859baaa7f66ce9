import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { useCalendars, useConnectCalendar, useDisconnectCalendar, type BusyCalendar } from '@/lib/api/endpoints/calendars'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { DisconnectSource } from './DisconnectSource'
import { useGoogleOffered } from '@/lib/api/endpoints/google-calendars'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { busyCalendarSchema } from './busy-calendar-form'
import { GoogleCalendarRow } from './GoogleCalendarRow'
import { OnFailureField, SourceFreshness } from './SourceFreshness'

/**
 * 'Agenda pessoal': per professional, the private iCal address of the
 * calendar they already use (Google, iCloud, Outlook). Agendei reads it every
 * few minutes and stops offering the times it has busy — the dentist, the
 * school meeting — on the public page. The address is a secret: kept sealed,
 * never shown back (only its host). Each row says when it was last read, and
 * why it could not be ('Não conseguimos ler sua agenda às 14:05: …').
 */
export function BusyCalendarsCard() {
  const team = useProfessionals()
  const calendars = useCalendars()
  const google = useGoogleOffered()
  const [editing, setEditing] = useState<string | null>(null)
  const pros = (team.data ?? []).filter((p) => p.active)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Agenda pessoal (horários ocupados)</CardTitle>
        <CardDescription>
          Conecte a agenda que cada profissional já usa: os compromissos dela deixam de aparecer como horários livres na sua página. Na agenda do Agendei eles aparecem
          como “Ocupado (agenda pessoal)”, sem o título, a menos que você escolha mostrá-lo — e nunca na página pública.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <WhereIsTheAddress />
        <ul className="grid gap-2" aria-label="Agendas pessoais">
          {pros.map((p) => {
            const cal = (calendars.data ?? []).find((c) => c.professionalId === p.id && c.kind === 'ics')
            const gcal = (calendars.data ?? []).find((c) => c.professionalId === p.id && c.kind === 'google')
            return (
              <li key={p.id} className="grid gap-2 rounded-md border border-stone-200 p-2 dark:border-stone-800">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{p.name}</span>
                    <Freshness cal={cal} />
                  </span>
                  {editing !== p.id ? (
                    <span className="flex gap-2">
                      <Button type="button" size="sm" variant="outline" onClick={() => setEditing(p.id)} aria-label={`${cal ? 'Alterar agenda' : 'Conectar agenda'} — ${p.name}`}>
                        {cal ? 'Alterar' : 'Conectar agenda'}
                      </Button>
                      {cal ? <DisconnectButton professionalId={p.id} name={p.name} /> : null}
                    </span>
                  ) : null}
                </div>
                {editing === p.id ? <BusyCalendarForm professionalId={p.id} name={p.name} cal={cal} onDone={() => setEditing(null)} /> : null}
                {google.data || gcal ? <GoogleCalendarRow professionalId={p.id} name={p.name} cal={gcal} /> : null}
              </li>
            )
          })}
        </ul>
      </CardContent>
    </Card>
  )
}

/** The row's second line: where it reads from, when it last did, and what went wrong. */
function Freshness({ cal }: { cal?: BusyCalendar }) {
  if (!cal) return <span className="block text-xs text-stone-600 dark:text-stone-400">Sem agenda conectada</span>
  return <SourceFreshness cal={cal} where={cal.host} />
}

function BusyCalendarForm({ professionalId, name, cal, onDone }: { professionalId: string; name: string; cal?: BusyCalendar; onDone: () => void }) {
  const form = useSchemaForm(busyCalendarSchema(!!cal), {
    url: '',
    showTitles: cal?.showTitles ?? false,
    allDay: (cal?.allDay ?? 'busy') as 'busy' | 'ignore',
    onFailure: (cal?.onFailure ?? 'keep') as 'keep' | 'drop',
  })
  const { errors } = form.formState
  const save = useConnectCalendar()
  const id = `cal-${professionalId}`
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(
      { professionalId, body },
      {
        onSuccess: () => {
          toast.success('Agenda salva', { description: 'Vamos ler a agenda agora e a cada poucos minutos.' })
          onDone()
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível salvar a agenda. Tente novamente.') }),
      },
    ),
  )
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid min-w-0 gap-3" noValidate aria-label={`Agenda pessoal — ${name}`}>
      <Field
        id={`${id}-url`}
        label="Endereço iCal da agenda"
        hint={cal ? `Conectada a ${cal.host}. Deixe em branco para manter o endereço atual.` : 'Começa com https:// ou webcal://. Ele é guardado com segurança e não é mostrado de novo.'}
        error={errors.url?.message}
      >
        <Input id={`${id}-url`} type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://calendar.google.com/calendar/ical/…/basic.ics" {...form.register('url')} />
      </Field>
      <Field id={`${id}-allday`} label="Eventos de dia inteiro">
        <Select id={`${id}-allday`} className="w-full min-w-0" {...form.register('allDay')}>
          <option value="busy">Contam como ocupado</option>
          <option value="ignore">Ignorar (feriados, aniversários)</option>
        </Select>
      </Field>
      <OnFailureField id={`${id}-failure`} {...form.register('onFailure')} />
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" {...form.register('showTitles')} />
        <span>Mostrar o título dos compromissos na minha agenda do Agendei (nunca na página pública)</span>
      </label>
      <FormError message={serverError(form)} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar agenda'}
        </Button>
      </div>
    </form>
  )
}

function DisconnectButton({ professionalId, name }: { professionalId: string; name: string }) {
  const remove = useDisconnectCalendar()
  return (
    <DisconnectSource
      professionalId={professionalId}
      label={`Desconectar agenda — ${name}`}
      question={`Desconectar a agenda de ${name}?`}
      description="O endereço guardado é apagado e os horários ocupados dela deixam de valer na sua página na hora."
      done={{ title: 'Agenda desconectada', description: 'Os horários ocupados dela deixaram de valer.' }}
      remove={remove}
    >
      Desconectar
    </DisconnectSource>
  )
}

/** Where each calendar's private address is. */
function WhereIsTheAddress() {
  return (
    <details className="rounded-md border border-stone-200 p-2 text-sm dark:border-stone-800">
      <summary className="cursor-pointer font-medium">Onde encontro o endereço da agenda?</summary>
      <ul className="mt-2 grid gap-2 text-stone-700 dark:text-stone-300">
        <li>
          <strong>Google Agenda</strong> (no computador): Configurações → clique na agenda em “Configurações das minhas agendas” → “Integrar agenda” → copie o
          “Endereço secreto no formato iCal”.
        </li>
        <li>
          <strong>iCloud (iPhone, Mac)</strong>: no app Calendário, toque em “Calendários” → no (i) da agenda, ative “Calendário Público” → “Compartilhar Link” e
          copie o endereço (começa com webcal://).
        </li>
        <li>
          <strong>Outlook</strong> (outlook.com ou Microsoft 365 na web): Configurações → Calendário → Calendários compartilhados → “Publicar um calendário” →
          escolha a agenda e “Pode ver quando estou ocupado” → copie o link ICS.
        </li>
      </ul>
      <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
        Quem tem o endereço vê a agenda: o Agendei o guarda criptografado e nunca o mostra de novo. A agenda é lida a cada 5 minutos; um compromisso novo leva
        até esse tempo para fechar o horário.
      </p>
    </details>
  )
}

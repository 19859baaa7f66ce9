import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { errorMessage } from '@/lib/api/client'
import { useCalendars, type BusyCalendar } from '@/lib/api/endpoints/calendars'
import { useConnectCaldav, useDisconnectCaldav, useDiscoverCaldav, type CaldavCalendar } from '@/lib/api/endpoints/caldav'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { DisconnectSource } from './DisconnectSource'
import { OnFailureField, SourceFreshness } from './SourceFreshness'

/**
 * 'Agenda CalDAV': per professional, a calendar account on any CalDAV server
 * (iCloud, Nextcloud, Fastmail, Zoho…) by its server address, user and an app
 * password. Agendei lists the account's calendars; the owner ticks the ones
 * whose events count as busy and picks one to receive Agendei's appointments
 * (or none). The password is kept sealed and never shown back: the row shows
 * only the server's host and the user.
 */
export function CaldavCard() {
  const team = useProfessionals()
  const calendars = useCalendars()
  const [editing, setEditing] = useState<string | null>(null)
  const pros = (team.data ?? []).filter((p) => p.active)
  return (
    <Card>
      <CardHeader>
        <CardTitle>CalDAV (iCloud, Nextcloud, Fastmail, Zoho…)</CardTitle>
        <CardDescription>
          Conecte a conta de agenda de cada profissional: os compromissos das agendas escolhidas fecham os horários na sua página, e os agendamentos do Agendei
          aparecem na agenda que você escolher — mudam quando são remarcados e somem quando são cancelados.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <WhereIsTheAppPassword />
        <ul className="grid gap-2" aria-label="Contas CalDAV">
          {pros.map((p) => {
            const cal = (calendars.data ?? []).find((c) => c.professionalId === p.id && c.kind === 'caldav')
            return (
              <li key={p.id} className="grid gap-2 rounded-md border border-stone-200 p-2 dark:border-stone-800">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{p.name}</span>
                    <Freshness cal={cal} />
                  </span>
                  {editing !== p.id ? (
                    <span className="flex gap-2">
                      <Button type="button" size="sm" variant="outline" onClick={() => setEditing(p.id)} aria-label={`${cal ? 'Alterar conta CalDAV' : 'Conectar CalDAV'} — ${p.name}`}>
                        {cal ? 'Alterar' : 'Conectar CalDAV'}
                      </Button>
                      {cal ? <DisconnectButton professionalId={p.id} name={p.name} /> : null}
                    </span>
                  ) : null}
                </div>
                {editing === p.id ? <CaldavForm professionalId={p.id} name={p.name} cal={cal} onDone={() => setEditing(null)} /> : null}
              </li>
            )
          })}
        </ul>
      </CardContent>
    </Card>
  )
}

function Freshness({ cal }: { cal?: BusyCalendar }) {
  if (!cal) return <span className="block text-xs text-stone-600 dark:text-stone-400">Sem conta CalDAV</span>
  return <SourceFreshness cal={cal} where={`${cal.account} em ${cal.host}`} extra={cal.writeCalendar ? ' · recebe os agendamentos' : ''} />
}

function CaldavForm({ professionalId, name, cal, onDone }: { professionalId: string; name: string; cal?: BusyCalendar; onDone: () => void }) {
  const [url, setUrl] = useState('')
  const [user, setUser] = useState(cal?.account ?? '')
  const [password, setPassword] = useState('')
  const [found, setFound] = useState<CaldavCalendar[] | null>(null)
  const [busy, setBusy] = useState<string[]>(cal?.calendars ?? [])
  const [write, setWrite] = useState(cal?.writeCalendar ?? '')
  const [allDay, setAllDay] = useState<'busy' | 'ignore'>((cal?.allDay ?? 'busy') as 'busy' | 'ignore')
  const [onFailure, setOnFailure] = useState<'keep' | 'drop'>((cal?.onFailure ?? 'keep') as 'keep' | 'drop')
  const [showTitles, setShowTitles] = useState(cal?.showTitles ?? false)
  const [error, setError] = useState<string | undefined>()
  const discover = useDiscoverCaldav()
  const save = useConnectCaldav()
  const id = `caldav-${professionalId}`
  // Connected: empty address and password keep the stored ones.
  const login = { url: url.trim(), user: user.trim(), password }

  const find = () => {
    setError(undefined)
    if (!cal && (login.url === '' || login.user === '' || login.password === '')) {
      setError('Informe o endereço do servidor, o usuário e a senha de app.')
      return
    }
    discover.mutate(
      { professionalId, body: login },
      {
        onSuccess: (r) => setFound(r.calendars),
        onError: (e) => setError(errorMessage(e, 'Não foi possível buscar as agendas. Tente novamente.')),
      },
    )
  }
  const submit = () => {
    setError(undefined)
    if (busy.length === 0 && write === '') {
      setError('Escolha ao menos uma agenda para os horários ocupados, ou uma para receber os agendamentos.')
      return
    }
    save.mutate(
      { professionalId, body: { ...login, calendars: busy, writeCalendar: write, allDay, onFailure, showTitles } },
      {
        onSuccess: () => {
          toast.success('Conta CalDAV salva', { description: 'Vamos ler as agendas agora e a cada poucos minutos.' })
          onDone()
        },
        onError: (e) => setError(errorMessage(e, 'Não foi possível salvar a conta. Tente novamente.')),
      },
    )
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        if (found) submit()
        else find()
      }}
      className="grid min-w-0 gap-3"
      noValidate
      aria-label={`Conta CalDAV — ${name}`}
    >
      <Field
        id={`${id}-url`}
        label="Endereço do servidor CalDAV"
        hint={cal ? `Conectada a ${cal.host}. Deixe em branco para manter o servidor e a senha atuais.` : 'iCloud: https://caldav.icloud.com · Fastmail: https://caldav.fastmail.com · Nextcloud: https://SEU-SERVIDOR/remote.php/dav'}
      >
        <Input id={`${id}-url`} type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://caldav.icloud.com" value={url} onChange={(e) => setUrl(e.target.value)} />
      </Field>
      <Field id={`${id}-user`} label="Usuário" hint="No iCloud, o e-mail do seu ID Apple.">
        <Input id={`${id}-user`} autoComplete="off" spellCheck={false} value={user} onChange={(e) => setUser(e.target.value)} />
      </Field>
      <Field id={`${id}-password`} label="Senha de app" hint="Não use a senha principal da conta: crie uma senha de app (veja abaixo). Ela é guardada com segurança e não é mostrada de novo.">
        <Input id={`${id}-password`} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      {found ? (
        <>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Agendas que contam como ocupado</legend>
            {found.map((c) => (
              <label key={c.path} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-brand-700"
                  checked={busy.includes(c.path)}
                  onChange={(e) => setBusy(e.target.checked ? [...busy, c.path] : busy.filter((p) => p !== c.path))}
                />
                <span>{c.name}</span>
              </label>
            ))}
          </fieldset>
          <Field id={`${id}-write`} label="Agenda que recebe os agendamentos do Agendei">
            <Select id={`${id}-write`} className="w-full min-w-0" value={write} onChange={(e) => setWrite(e.target.value)}>
              <option value="">Nenhuma</option>
              {found.map((c) => (
                <option key={c.path} value={c.path}>
                  {c.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field id={`${id}-allday`} label="Eventos de dia inteiro">
            <Select id={`${id}-allday`} className="w-full min-w-0" value={allDay} onChange={(e) => setAllDay(e.target.value as 'busy' | 'ignore')}>
              <option value="busy">Contam como ocupado</option>
              <option value="ignore">Ignorar (feriados, aniversários)</option>
            </Select>
          </Field>
          <OnFailureField id={`${id}-failure`} value={onFailure} onChange={(e) => setOnFailure(e.target.value as 'keep' | 'drop')} />
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" checked={showTitles} onChange={(e) => setShowTitles(e.target.checked)} />
            <span>Mostrar o título dos compromissos na minha agenda do Agendei (nunca na página pública)</span>
          </label>
        </>
      ) : null}
      <FormError message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancelar
        </Button>
        {found ? (
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Salvando...' : 'Salvar conta'}
          </Button>
        ) : (
          <Button type="submit" disabled={discover.isPending}>
            {discover.isPending ? 'Buscando...' : 'Buscar agendas'}
          </Button>
        )}
      </div>
    </form>
  )
}

function DisconnectButton({ professionalId, name }: { professionalId: string; name: string }) {
  const remove = useDisconnectCaldav()
  return (
    <DisconnectSource
      professionalId={professionalId}
      label={`Desconectar CalDAV — ${name}`}
      question={`Desconectar a conta CalDAV de ${name}?`}
      description="A senha de app guardada é apagada e os horários ocupados dela deixam de valer na sua página na hora. Os eventos que o Agendei já gravou ficam na agenda, sem novas atualizações."
      done={{ title: 'Conta CalDAV desconectada', description: 'Os horários ocupados dela deixaram de valer; os eventos já escritos ficam na agenda.' }}
      remove={remove}
    >
      Desconectar
    </DisconnectSource>
  )
}

/** Where each provider makes an app password, and its server address. */
function WhereIsTheAppPassword() {
  return (
    <details className="rounded-md border border-stone-200 p-2 text-sm dark:border-stone-800">
      <summary className="cursor-pointer font-medium">Onde crio a senha de app?</summary>
      <ul className="mt-2 grid gap-2 text-stone-700 dark:text-stone-300">
        <li>
          <strong>iCloud</strong>: em appleid.apple.com → Entrar e Segurança → Senhas de app → gere uma senha. Servidor: https://caldav.icloud.com; usuário: o
          e-mail do seu ID Apple.
        </li>
        <li>
          <strong>Fastmail</strong>: Configurações → Privacidade e segurança → Senhas de app → nova senha com acesso a “Agendas (CalDAV)”. Servidor:
          https://caldav.fastmail.com.
        </li>
        <li>
          <strong>Nextcloud</strong>: Configurações pessoais → Segurança → “Criar nova senha de app”. Servidor: o endereço do seu Nextcloud seguido de
          /remote.php/dav.
        </li>
        <li>
          <strong>Zoho e outros</strong>: procure “senha de app” (ou “senha específica de aplicativo”) nas configurações de segurança e use o endereço CalDAV que
          o provedor informa.
        </li>
      </ul>
    </details>
  )
}

import { useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { brDate } from '@/lib/format'
import { formatPhone } from '@/lib/phone'
import { whatsappFor } from '@/lib/whatsapp'
import { useOwnerFreeTimes } from './api/get-free-times'
import { useOfferTime, useSaveWaitlistSettings, useWaitlist, useWaitlistSettings, waitlistPage } from './api/waitlist'

type Entry = Schemas['WaitlistOwnerEntry']

const partLabel = { manha: 'manhã', tarde: 'tarde', noite: 'noite', qualquer: 'qualquer horário' } as const
const offerState = { open: 'aguardando resposta', expired: 'expirou', claimed: 'confirmado', awaiting_deposit: 'aguardando sinal' } as const
const channelLabel = { whatsapp: 'WhatsApp', email: 'e-mail', push: 'notificação no celular' } as const

/** How the channels the server names tell the client: "por WhatsApp e por notificação no celular". */
function toldBy(channels: readonly Schemas['WaitlistChannel'][]): string {
  return channels.map((c) => `por ${channelLabel[c]}`).join(' e ')
}

/** The day's waitlist in the agenda (issue 28, point 3): who waits, in order of arrival, and "Oferecer horário". */
export function WaitlistPanel({ date }: { date: string }) {
  // A date's list comes by pages (issue 38: one date's list was one 4.1 MB answer).
  const [page, setPage] = useState({ date, offset: 0 })
  const offset = page.date === date ? page.offset : 0
  const list = useWaitlist(date, offset)
  const entries = list.data?.entries ?? []
  const total = list.data?.total ?? 0
  const go = (to: number) => setPage({ date, offset: to })
  return (
    <section aria-labelledby="waitlist-title" className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <h2 id="waitlist-title" className="font-semibold">
        Lista de espera {list.data ? `(${total})` : null}
      </h2>
      {list.isLoading ? (
        <p className="mt-2 text-sm text-stone-600">Carregando...</p>
      ) : entries.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">Ninguém na lista de espera para este dia.</p>
      ) : (
        <ol className="mt-3 grid gap-3">
          {entries.map((e, i) => (
            <WaitingClient key={e.id} entry={e} place={offset + i + 1} date={date} />
          ))}
        </ol>
      )}
      {total > waitlistPage ? (
        <nav aria-label="Páginas da lista de espera" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
          <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => go(Math.max(0, offset - waitlistPage))}>
            Anteriores
          </Button>
          <span className="text-stone-600 dark:text-stone-400">
            {offset + 1}–{Math.min(offset + entries.length, total)} de {total}
          </span>
          <Button variant="outline" size="sm" disabled={offset + waitlistPage >= total} onClick={() => go(offset + waitlistPage)}>
            Próximos
          </Button>
        </nav>
      ) : null}
      <OfferMinutes />
    </section>
  )
}

function WaitingClient({ entry: e, place, date }: { entry: Entry; place: number; date: string }) {
  const [offering, setOffering] = useState(false)
  const when = e.firstDate === e.lastDate ? brDate(e.firstDate) : `${brDate(e.firstDate)} a ${brDate(e.lastDate)}`
  const o = e.lastOffer
  return (
    <li className="rounded-xl border border-stone-200 p-3 text-sm dark:border-stone-700">
      <p className="font-medium">
        {place}. {e.clientName}
      </p>
      {/* Their contacts as links: an offer that could not be e-mailed is passed on by WhatsApp or e-mail by hand. */}
      <p className="break-words text-stone-600 dark:text-stone-400">
        {e.clientPhone ? (
          <a className="text-brand-700 hover:underline dark:text-brand-200" href={whatsappFor(e.clientPhone)} target="_blank" rel="noreferrer">
            {formatPhone(e.clientPhone)}
          </a>
        ) : null}
        {e.clientPhone && e.clientEmail ? ' · ' : null}
        {e.clientEmail ? (
          <a className="text-brand-700 hover:underline dark:text-brand-200" href={`mailto:${e.clientEmail}`}>
            {e.clientEmail}
          </a>
        ) : null}
      </p>
      <p>
        {e.serviceName} · {e.professionalName || 'Qualquer profissional'} · {when} · {partLabel[e.partOfDay]}
      </p>
      {/* How the client hears of an offer (issue 41: a client reached by push or WhatsApp alone is reached, not "sem e-mail"); the
          warning only for one no channel reaches. */}
      {o ? (
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          Oferecido: {brDate(o.date)} às {o.time} — {offerState[o.status]}
          {o.channels.length > 0 ? ` (avisado ${toldBy(o.channels)})` : ' (sem aviso automático: avise o cliente)'}
        </p>
      ) : (
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          {e.channels.length > 0 ? `Recebe as ofertas ${toldBy(e.channels)}.` : 'Nenhum aviso automático alcança este cliente: ao oferecer um horário, avise-o você.'}
        </p>
      )}
      {offering ? (
        <OfferForm entry={e} date={date} onDone={() => setOffering(false)} />
      ) : (
        <Button variant="outline" size="sm" className="mt-2" onClick={() => setOffering(true)}>
          Oferecer horário
        </Button>
      )}
    </li>
  )
}

function OfferForm({ entry: e, date, onDone }: { entry: Entry; date: string; onDone: () => void }) {
  const pros = useProfessionals()
  const [pro, setPro] = useState(e.professionalId ?? '')
  const [time, setTime] = useState('')
  const times = useOwnerFreeTimes({ professional: pro, service: e.serviceId, date }, { enabled: pro !== '' })
  const offer = useOfferTime()
  const active = (pros.data ?? []).filter((p) => p.active)
  function submit(ev: FormEvent) {
    ev.preventDefault()
    if (!time) return
    offer.mutate(
      { id: e.id, date, time, professionalId: pro || undefined },
      {
        onSuccess: (sent) => {
          const told = sent.channels.length > 0 ? `Avisado ${toldBy(sent.channels)}.` : 'Nenhum aviso automático: avise o cliente.'
          toast.success('Horário oferecido', { description: `${e.clientName}: ${brDate(date)} às ${time}. ${told}` })
          onDone()
        },
        onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível oferecer o horário.') }),
      },
    )
  }
  return (
    <form onSubmit={submit} aria-label={`Oferecer horário a ${e.clientName}`} className="mt-2 grid gap-2">
      {e.professionalId ? null : (
        <Field id={`wl-pro-${e.id}`} label="Profissional">
          <Select id={`wl-pro-${e.id}`} value={pro} onChange={(ev) => setPro(ev.target.value)}>
            <option value="">Selecione</option>
            {active.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <Field id={`wl-time-${e.id}`} label="Horário livre">
        <Select id={`wl-time-${e.id}`} value={time} onChange={(ev) => setTime(ev.target.value)} disabled={!pro}>
          <option value="">{times.data && times.data.times.length === 0 ? 'Nenhum horário livre' : 'Selecione'}</option>
          {(times.data?.times ?? []).map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={!time || offer.isPending}>
          {offer.isPending ? 'Enviando...' : 'Enviar oferta'}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={onDone}>
          Cancelar
        </Button>
      </div>
    </form>
  )
}

/** The owner's setting: how long an offer's claim link books its time. */
function OfferMinutes() {
  const settings = useWaitlistSettings()
  const save = useSaveWaitlistSettings()
  const [value, setValue] = useState<string | null>(null)
  const shown = value ?? String(settings.data?.offerMinutes ?? '')
  function submit(ev: FormEvent) {
    ev.preventDefault()
    save.mutate(Number(shown), {
      onSuccess: () => {
        setValue(null)
        toast.success('Prazo salvo')
      },
      onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível salvar.') }),
    })
  }
  return (
    <form onSubmit={submit} className="mt-4 border-t border-stone-200 pt-3 dark:border-stone-800">
      <Field id="wl-minutes" label="Minutos para o cliente confirmar uma oferta">
        {/* The button beside its field, not past the end of the label's line. */}
        <div className="flex flex-wrap items-center gap-2">
          <Input id="wl-minutes" type="number" min={5} max={1440} inputMode="numeric" className="w-28" value={shown} onChange={(ev) => setValue(ev.target.value)} />
          <Button type="submit" variant="outline" size="sm" disabled={save.isPending || value === null}>
            Salvar prazo
          </Button>
        </div>
      </Field>
    </form>
  )
}

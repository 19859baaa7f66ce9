import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { type Schemas } from '@/lib/api/client'
import { longDate } from '@/lib/format'
import { cn } from '@/lib/utils'
import { DateTimeFields } from './DateTimeFields'
import { ClientNotice } from './ClientNotice'
import { FreeTimes } from './FreeTimes'

export { cancellationText } from './ClientNotice'

type Affected = Schemas['AffectedAppointment']
/** The owner's plan for one affected appointment, sent with the block or day off. */
export type PlanChoice = Schemas['AffectedChoice']

function said(c: PlanChoice): string {
  if (c.action === 'keep') return 'Fica no horário'
  if (c.action === 'cancel') return 'Será cancelado ao salvar, com aviso ao cliente'
  return `Será remarcado ao salvar para ${longDate(c.date ?? '')} às ${c.time ?? ''}${c.notify ? ', com aviso ao cliente' : ''}`
}

/** The choices as the plan the server applies with the save, in the list's order. */
export function planOf(list: Affected[], choices: Record<string, PlanChoice>): PlanChoice[] {
  return list.flatMap((a) => (choices[a.id] ? [choices[a.id]] : []))
}

/**
 * The confirmed appointments inside time being blocked (or a day off),
 * before it is saved: the owner decides for each — keep it (it stays over
 * the block), move it (Remarcar: a new date and time, picked from the free
 * ones) or cancel it with a notice to the client. The choices are a plan:
 * nothing changes until the save, which applies the block, the moves and
 * the cancellations together (all or nothing); "Voltar" changes nothing.
 */
export function AffectedAppointments(props: {
  list: Affected[]
  pending: boolean
  saveLabel?: string
  pendingLabel?: string
  onBack: () => void
  onSave: (plan: PlanChoice[]) => void
}) {
  const [choices, setChoices] = useState<Record<string, PlanChoice>>({})
  const decided = props.list.every((a) => choices[a.id] !== undefined)
  const choose = (c: PlanChoice) => setChoices((m) => ({ ...m, [c.id]: c }))
  return (
    <div role="alertdialog" aria-labelledby="affected-title" aria-describedby="affected-hint" className="grid gap-4">
      <p id="affected-title" className="font-semibold">
        {props.list.length === 1 ? '1 agendamento neste período' : `${props.list.length} agendamentos neste período`}
      </p>
      <p id="affected-hint" className="text-sm text-stone-700 dark:text-stone-300">
        Escolha o que fazer com cada cliente: manter no horário, remarcar ou cancelar avisando o cliente. Nada muda antes de você salvar.
      </p>
      <ul className="grid gap-3" aria-label="Agendamentos afetados">
        {props.list.map((a) => (
          <AffectedItem key={a.id} a={a} choice={choices[a.id]} onChoose={choose} />
        ))}
      </ul>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={props.onBack}>
          Voltar
        </Button>
        <Button type="button" disabled={!decided || props.pending} onClick={() => props.onSave(planOf(props.list, choices))}>
          {props.pending ? (props.pendingLabel ?? 'Bloqueando...') : (props.saveLabel ?? 'Bloquear')}
        </Button>
      </DialogFooter>
    </div>
  )
}

function AffectedItem({ a, choice, onChoose }: { a: Affected; choice?: PlanChoice; onChoose: (c: PlanChoice) => void }) {
  const [moving, setMoving] = useState(false)
  return (
    <li className="grid gap-2 rounded-lg border border-stone-200 p-3 text-sm dark:border-stone-800" aria-label={a.clientName}>
      <span>
        <span className="font-medium">{a.clientName}</span> · {longDate(a.date)} às {a.time} · {a.serviceName} · {a.professionalName}
      </span>
      {choice && !moving ? <span className="text-xs font-semibold text-brand-800 dark:text-brand-200">{said(choice)}</span> : null}
      {moving ? (
        <PlanMove
          a={a}
          choice={choice?.action === 'move' ? choice : undefined}
          onDone={(c) => {
            setMoving(false)
            onChoose(c)
          }}
          onCancel={() => setMoving(false)}
        />
      ) : (
        <div className="flex flex-wrap gap-2" role="group" aria-label={`O que fazer com ${a.clientName}`}>
          <Button type="button" size="sm" variant="outline" aria-pressed={choice?.action === 'keep'} className={cn(choice?.action === 'keep' && 'border-brand-700')} onClick={() => onChoose({ id: a.id, action: 'keep' })}>
            Manter
          </Button>
          <Button type="button" size="sm" variant="outline" aria-pressed={choice?.action === 'move'} className={cn(choice?.action === 'move' && 'border-brand-700')} onClick={() => setMoving(true)}>
            Remarcar
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            aria-pressed={choice?.action === 'cancel'}
            className={cn(choice?.action === 'cancel' && 'border-brand-700')}
            onClick={() => onChoose({ id: a.id, action: 'cancel', notify: true })}
          >
            Cancelar e avisar
          </Button>
        </div>
      )}
    </li>
  )
}

/**
 * "Remarcar" inside the plan: the new date and time (the professional's
 * free times offered, as "Remarcar" in the agenda does) and whether to tell
 * the client. It moves nothing: the move is applied with the save.
 */
function PlanMove({ a, choice, onDone, onCancel }: { a: Affected; choice?: PlanChoice; onDone: (c: PlanChoice) => void; onCancel: () => void }) {
  const [date, setDate] = useState(choice?.date ?? a.date)
  const [time, setTime] = useState(choice?.time ?? '')
  const [notify, setNotify] = useState(choice?.notify ?? true)
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(date) && /^([01]\d|2[0-3]):[0-5]\d$/.test(time)
  return (
    <div className="grid gap-3 rounded-lg border border-stone-200 p-3 dark:border-stone-800" role="group" aria-label={`Remarcar ${a.clientName}`}>
      <DateTimeFields
        date={{ id: `plan-date-${a.id}`, label: 'Nova data', value: date, onChange: (e) => setDate(e.target.value) }}
        time={{ id: `plan-time-${a.id}`, label: 'Novo horário', value: time, onChange: (e) => setTime(e.target.value) }}
      />
      <FreeTimes professionalId={a.professionalId} serviceId={a.serviceId} date={date} appointment={a.id} value={time} onPick={setTime} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-brand-700" checked={notify} onChange={(e) => setNotify(e.target.checked)} />
        Avisar o cliente do novo horário
      </label>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onCancel}>
          Voltar
        </Button>
        <Button type="button" size="sm" disabled={!ok} onClick={() => onDone({ id: a.id, action: 'move', date, time, notify })}>
          Usar este horário
        </Button>
      </div>
    </div>
  )
}

/** What a save did to the appointments it was saved over, as the server answered it. */
export type Outcome = Schemas['AffectedOutcome']

/**
 * After the save: for each cancelled or moved appointment, which channel
 * told its client — or that none could, with the right message (the
 * cancellation, or the rescheduling) ready to send on WhatsApp in one tap.
 */
export function CancellationResults(props: { list: Affected[]; outcomes: Outcome[]; onDone: () => void }) {
  const changed = props.outcomes.filter((o) => o.action !== 'kept')
  const cancelled = changed.filter((o) => o.action === 'cancelled').length
  const moved = changed.length - cancelled
  const counts = [
    cancelled ? (cancelled === 1 ? '1 agendamento cancelado' : `${cancelled} agendamentos cancelados`) : '',
    moved ? (moved === 1 ? '1 agendamento remarcado' : `${moved} agendamentos remarcados`) : '',
  ].filter(Boolean)
  return (
    <div role="status" aria-labelledby="results-title" className="grid gap-4">
      <p id="results-title" className="font-semibold">
        Salvo.{counts.length ? ` ${counts.join(', ')}` : ''}
      </p>
      <ul className="grid gap-3" aria-label="Agendamentos alterados">
        {changed.map((o) => {
          const a = props.list.find((x) => x.id === o.id)
          if (!a) return null
          const now = o.action === 'moved' ? { ...a, date: o.date ?? a.date, time: o.time ?? a.time } : a
          return (
            <li key={o.id} className="grid gap-2 rounded-lg border border-stone-200 p-3 text-sm dark:border-stone-800" aria-label={a.clientName}>
              <span>
                <span className="font-medium">{a.clientName}</span> ·{' '}
                {o.action === 'moved' ? `remarcado de ${longDate(a.date)} às ${a.time} para ${longDate(now.date)} às ${now.time}` : `${longDate(a.date)} às ${a.time} · cancelado`}
              </span>
              <ClientNotice kind={o.action === 'moved' ? 'move' : 'cancel'} channel={o.channel} appointment={now} />
            </li>
          )
        })}
      </ul>
      <DialogFooter>
        <Button type="button" onClick={props.onDone}>
          Concluir
        </Button>
      </DialogFooter>
    </div>
  )
}

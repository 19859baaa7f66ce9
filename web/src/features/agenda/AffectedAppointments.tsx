import { MessageCircle } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { type Schemas } from '@/lib/api/client'
import { longDate } from '@/lib/format'
import { cn } from '@/lib/utils'
import { whatsappFor } from '@/lib/whatsapp'
import { useAppointment } from './api/get-appointment'
import { RescheduleForm } from './RescheduleForm'

type Affected = Schemas['AffectedAppointment']
export type Choice = 'keep' | 'moved' | 'cancel'
/** The owner's plan for one affected appointment, sent with the block or day off. */
export type PlanChoice = Schemas['AffectedChoice']

const said: Record<Choice, string> = {
  keep: 'Fica no horário',
  moved: 'Remarcado',
  cancel: 'Será cancelado ao salvar, com aviso ao cliente',
}

/** The choices as the plan the server applies with the save (a moved one is no longer inside it). */
export function planOf(list: Affected[], choices: Record<string, Choice>): PlanChoice[] {
  return list.flatMap((a): PlanChoice[] => {
    const c = choices[a.id]
    if (c === 'keep') return [{ id: a.id, action: 'keep' }]
    if (c === 'cancel') return [{ id: a.id, action: 'cancel', notify: true }]
    return []
  })
}

/**
 * The confirmed appointments inside time being blocked (or a day off),
 * before it is saved: the owner decides for each — keep it (it stays over
 * the block), move it (Remarcar, which moves it on its own confirm) or
 * cancel it with a notice to the client. Keep and cancel are a plan:
 * nothing changes until the save, which applies the block and the
 * cancellations together; "Voltar" changes nothing.
 */
export function AffectedAppointments(props: {
  list: Affected[]
  pending: boolean
  saveLabel?: string
  pendingLabel?: string
  onBack: () => void
  onSave: (plan: PlanChoice[]) => void
}) {
  const [choices, setChoices] = useState<Record<string, Choice>>({})
  const decided = props.list.every((a) => choices[a.id] !== undefined)
  const choose = (id: string, c: Choice) => setChoices((m) => ({ ...m, [id]: c }))
  return (
    <div role="alertdialog" aria-labelledby="affected-title" aria-describedby="affected-hint" className="grid gap-4">
      <p id="affected-title" className="font-semibold">
        {props.list.length === 1 ? '1 agendamento neste período' : `${props.list.length} agendamentos neste período`}
      </p>
      <p id="affected-hint" className="text-sm text-stone-700 dark:text-stone-300">
        Escolha o que fazer com cada cliente: manter no horário, remarcar ou cancelar avisando o cliente. Nada é cancelado antes de você salvar.
      </p>
      <ul className="grid gap-3" aria-label="Agendamentos afetados">
        {props.list.map((a) => (
          <AffectedItem key={a.id} a={a} choice={choices[a.id]} onChoose={(c) => choose(a.id, c)} />
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

function AffectedItem({ a, choice, onChoose }: { a: Affected; choice?: Choice; onChoose: (c: Choice) => void }) {
  const [moving, setMoving] = useState(false)
  return (
    <li className="grid gap-2 rounded-lg border border-stone-200 p-3 text-sm dark:border-stone-800" aria-label={a.clientName}>
      <span>
        <span className="font-medium">{a.clientName}</span> · {longDate(a.date)} às {a.time} · {a.serviceName} · {a.professionalName}
      </span>
      {choice ? <span className="text-xs font-semibold text-brand-800 dark:text-brand-200">{said[choice]}</span> : null}
      {choice === 'moved' ? null : moving ? (
        <MoveAffected id={a.id} onDone={() => { setMoving(false); onChoose('moved') }} onCancel={() => setMoving(false)} />
      ) : (
        <div className="flex flex-wrap gap-2" role="group" aria-label={`O que fazer com ${a.clientName}`}>
          <Button type="button" size="sm" variant="outline" aria-pressed={choice === 'keep'} className={cn(choice === 'keep' && 'border-brand-700')} onClick={() => onChoose('keep')}>
            Manter
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setMoving(true)}>
            Remarcar
          </Button>
          <Button type="button" size="sm" variant="outline" aria-pressed={choice === 'cancel'} className={cn(choice === 'cancel' && 'border-brand-700')} onClick={() => onChoose('cancel')}>
            Cancelar e avisar
          </Button>
        </div>
      )}
    </li>
  )
}

/** What a save did to the appointments it was saved over, as the server answered it. */
export type Outcome = Schemas['AffectedOutcome']

const told: Record<string, string> = {
  email: 'Cancelado. Avisamos por e-mail.',
  whatsapp: 'Cancelado. Avisamos por WhatsApp.',
  none: 'Cancelado. Não conseguimos avisar automaticamente.',
  '': 'Cancelado, sem aviso ao cliente.',
}

/** The cancellation text the owner sends by hand when no automatic message could leave. */
export function cancellationText(a: Pick<Affected, 'clientName' | 'serviceName' | 'professionalName' | 'date' | 'time'>): string {
  return `Olá, ${a.clientName}! Precisamos cancelar o seu horário de ${a.serviceName} com ${a.professionalName} em ${longDate(a.date)} às ${a.time}. Pedimos desculpas. Responda esta mensagem para marcarmos outro horário.`
}

/**
 * After the save: for each cancelled appointment, which channel told its
 * client — or that none could, with the cancellation ready to send on
 * WhatsApp in one tap.
 */
export function CancellationResults(props: { list: Affected[]; outcomes: Outcome[]; onDone: () => void }) {
  const cancelled = props.outcomes.filter((o) => o.action === 'cancelled')
  return (
    <div role="status" aria-labelledby="results-title" className="grid gap-4">
      <p id="results-title" className="font-semibold">
        Salvo. {cancelled.length === 1 ? '1 agendamento cancelado' : `${cancelled.length} agendamentos cancelados`}
      </p>
      <ul className="grid gap-3" aria-label="Agendamentos cancelados">
        {cancelled.map((o) => {
          const a = props.list.find((x) => x.id === o.id)
          if (!a) return null
          const wa = o.channel === 'none' ? whatsappFor(a.clientPhone, cancellationText(a)) : undefined
          return (
            <li key={o.id} className="grid gap-2 rounded-lg border border-stone-200 p-3 text-sm dark:border-stone-800" aria-label={a.clientName}>
              <span>
                <span className="font-medium">{a.clientName}</span> · {longDate(a.date)} às {a.time}
              </span>
              <span className="text-xs font-semibold text-brand-800 dark:text-brand-200">{told[o.channel]}</span>
              {wa ? (
                <a href={wa} target="_blank" rel="noreferrer" className={waButton}>
                  <MessageCircle className="size-4" aria-hidden /> Enviar o cancelamento pelo WhatsApp
                </a>
              ) : o.channel === 'none' ? (
                <span className="text-xs text-stone-700 dark:text-stone-300">Sem WhatsApp cadastrado: avise o cliente por telefone.</span>
              ) : null}
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

const waButton =
  'inline-flex h-8 w-fit items-center gap-1 rounded-md border border-green-600 px-3 text-sm font-medium text-green-800 hover:bg-green-50 dark:border-green-500 dark:text-green-200 dark:hover:bg-green-900/30'

function MoveAffected({ id, onDone, onCancel }: { id: string; onDone: () => void; onCancel: () => void }) {
  const appointment = useAppointment(id)
  if (appointment.isLoading) return <Spinner />
  if (!appointment.data) return <p className="text-sm text-red-700 dark:text-red-300">Não foi possível carregar o agendamento.</p>
  return <RescheduleForm appointment={appointment.data} onDone={onDone} onCancel={onCancel} />
}

import { useState } from 'react'
import { toast } from 'sonner'
import { WhatsAppMessages } from '@/components/whatsapp-messages'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { type Schemas } from '@/lib/api/client'
import { longDate } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useAppointment } from './api/get-appointment'
import { useSetAppointmentStatus } from './api/set-appointment-status'
import { RescheduleForm } from './RescheduleForm'

type Affected = Schemas['AffectedAppointment']
export type Choice = 'keep' | 'moved' | 'cancelled'

const said: Record<Choice, string> = { keep: 'Fica no horário', moved: 'Remarcado', cancelled: 'Cancelado, cliente avisado' }

/**
 * The confirmed appointments inside time being blocked, before it is saved:
 * the owner decides for each — keep it (it stays over the block), move it
 * (Remarcar) or cancel it with a notice to the client (e-mail, and the
 * WhatsApp message prefilled). The block saves once every one is decided.
 */
export function AffectedAppointments(props: { list: Affected[]; pending: boolean; onBack: () => void; onSave: (keep: string[]) => void }) {
  const [choices, setChoices] = useState<Record<string, Choice>>({})
  const decided = props.list.every((a) => choices[a.id] !== undefined)
  const choose = (id: string, c: Choice) => setChoices((m) => ({ ...m, [id]: c }))
  return (
    <div role="alertdialog" aria-labelledby="affected-title" aria-describedby="affected-hint" className="grid gap-4">
      <p id="affected-title" className="font-semibold">
        {props.list.length === 1 ? '1 agendamento neste período' : `${props.list.length} agendamentos neste período`}
      </p>
      <p id="affected-hint" className="text-sm text-stone-700 dark:text-stone-300">
        Escolha o que fazer com cada cliente antes de bloquear: manter no horário, remarcar ou cancelar avisando o cliente.
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
        <Button type="button" disabled={!decided || props.pending} onClick={() => props.onSave(props.list.filter((a) => choices[a.id] === 'keep').map((a) => a.id))}>
          {props.pending ? 'Bloqueando...' : 'Bloquear'}
        </Button>
      </DialogFooter>
    </div>
  )
}

function AffectedItem({ a, choice, onChoose }: { a: Affected; choice?: Choice; onChoose: (c: Choice) => void }) {
  const [moving, setMoving] = useState(false)
  const cancel = useSetAppointmentStatus()
  const done = choice === 'moved' || choice === 'cancelled'
  return (
    <li className="grid gap-2 rounded-lg border border-stone-200 p-3 text-sm dark:border-stone-800" aria-label={a.clientName}>
      <span>
        <span className="font-medium">{a.clientName}</span> · {longDate(a.date)} às {a.time} · {a.serviceName} · {a.professionalName}
      </span>
      {choice ? <span className="text-xs font-semibold text-brand-800 dark:text-brand-200">{said[choice]}</span> : null}
      {choice === 'cancelled' ? (
        <WhatsAppMessages
          appointment={{ id: a.id, clientName: a.clientName, clientPhone: a.clientPhone, date: a.date, time: a.time, serviceName: a.serviceName, serviceId: a.serviceId, professionalName: a.professionalName }}
          kinds={['reschedule']}
        />
      ) : null}
      {done ? null : moving ? (
        <MoveAffected id={a.id} onDone={() => { setMoving(false); onChoose('moved') }} onCancel={() => setMoving(false)} />
      ) : (
        <div className="flex flex-wrap gap-2" role="group" aria-label={`O que fazer com ${a.clientName}`}>
          <Button type="button" size="sm" variant="outline" aria-pressed={choice === 'keep'} className={cn(choice === 'keep' && 'border-brand-700')} onClick={() => onChoose('keep')}>
            Manter
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setMoving(true)}>
            Remarcar
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={cancel.isPending}
            onClick={() =>
              cancel.mutate(
                { id: a.id, status: 'cancelled', notifyClient: a.clientEmail !== '' },
                {
                  onSuccess: () => onChoose('cancelled'),
                  onError: () => toast.error('Erro', { description: 'Não foi possível cancelar o agendamento. Tente novamente.' }),
                },
              )
            }
          >
            {cancel.isPending ? 'Cancelando...' : 'Cancelar e avisar'}
          </Button>
        </div>
      )}
    </li>
  )
}

function MoveAffected({ id, onDone, onCancel }: { id: string; onDone: () => void; onCancel: () => void }) {
  const appointment = useAppointment(id)
  if (appointment.isLoading) return <Spinner />
  if (!appointment.data) return <p className="text-sm text-red-700 dark:text-red-300">Não foi possível carregar o agendamento.</p>
  return <RescheduleForm appointment={appointment.data} onDone={onDone} onCancel={onCancel} />
}

import { useId } from 'react'
import { Button } from '@/components/ui/button'
import { sheetActionsClass } from '@/components/ui/sheet'
import { longDate } from '@/lib/format'
import { cn } from '@/lib/utils'

/** The refusals an owner may answer with a yes, and the flag that says it. */
export type Overridable = 'outside_hours' | 'personal_busy'
export const overrideFlag = { outside_hours: 'outsideHours', personal_busy: 'overPersonal' } as const

/** Whether a refusal is one the owner may answer with a yes. */
export function overridable(code: string): code is Overridable {
  return code === 'outside_hours' || code === 'personal_busy'
}

/**
 * The owner's explicit yes before an appointment is written (or moved)
 * outside the professional's hours ('Fora do horário de atendimento') or
 * over a time the professional's own calendar has busy ('Ocupado (agenda
 * pessoal)', issue 42).
 */
export function OutsideHoursConfirm({
  date,
  time,
  reason = 'outside_hours',
  action,
  pending,
  compact = false,
  onBack,
  onConfirm,
}: {
  date: string
  time: string
  reason?: Overridable
  action: { verb: string; button: string; pending?: string } // 'agendar', 'Agendar mesmo assim', 'Agendando...'
  pending: boolean
  compact?: boolean
  onBack: () => void
  onConfirm: () => void
}) {
  const id = useId()
  const size = compact ? 'sm' : undefined
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      className={cn('grid', compact ? 'gap-3 rounded-lg border border-amber-300 p-3 dark:border-amber-700' : 'gap-4')}
    >
      <p id={`${id}-title`} className="font-semibold">
        {reason === 'personal_busy' ? 'Ocupado (agenda pessoal)' : 'Fora do horário de atendimento'}
      </p>
      <p id={`${id}-text`} className="text-sm text-stone-700 dark:text-stone-300">
        {longDate(date)} às {time}:{' '}
        {reason === 'personal_busy'
          ? 'este horário coincide com um compromisso da agenda pessoal do profissional.'
          : 'este horário não está entre os horários do profissional.'}{' '}
        Deseja {action.verb} mesmo assim?
      </p>
      {/* Full size, it takes a dialog's place: its buttons are the sheet's action bar. */}
      <div className={compact ? 'flex justify-end gap-2' : sheetActionsClass}>
        <Button type="button" variant="outline" size={size} onClick={onBack}>
          Voltar
        </Button>
        <Button type="button" size={size} disabled={pending} onClick={onConfirm}>
          {pending && action.pending ? action.pending : action.button}
        </Button>
      </div>
    </div>
  )
}

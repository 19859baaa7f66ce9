import { CalendarClock, CheckCircle2, CircleDashed, XCircle } from 'lucide-react'
import type { Schemas } from '@/lib/api/client'

/** The client's answer to a reminder (issue 28): '' sem resposta, confirmed, reschedule, cancelled. */
export type ClientAnswer = Schemas['Appointment']['answer']

const labels: Record<string, string> = {
  confirmed: 'confirmado pelo cliente',
  reschedule: 'pediu para remarcar',
  cancelled: 'cancelado pelo cliente',
}

/** The answer in words, as the agenda, the details and the dashboard say it. */
export function answerLabel(answer: string): string {
  return labels[answer] ?? 'sem resposta'
}

const tones: Record<string, string> = {
  confirmed: 'text-emerald-800 dark:text-emerald-200',
  reschedule: 'text-amber-800 dark:text-amber-200',
  cancelled: 'text-red-800 dark:text-red-200',
  '': 'text-stone-600 dark:text-stone-300',
}

/** Each answer has its own icon as well as its words: never told apart by colour alone. */
export function AnswerIcon({ answer, className = 'inline size-3' }: { answer: string; className?: string }) {
  const Icon = answer === 'confirmed' ? CheckCircle2 : answer === 'reschedule' ? CalendarClock : answer === 'cancelled' ? XCircle : CircleDashed
  return <Icon className={className} aria-hidden />
}

/** The answer as an icon and words. */
export function AnswerBadge({ answer, className = '' }: { answer: string; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-1 text-xs font-medium ${tones[answer] ?? tones['']} ${className}`} data-answer={answer || 'none'}>
      <AnswerIcon answer={answer} className="size-3.5 shrink-0" />
      {answerLabel(answer)}
    </span>
  )
}

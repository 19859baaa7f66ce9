import type { InputHTMLAttributes, ReactNode, Ref } from 'react'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'

/** One date or time input: its id, label and error, and what drives it (a form's register(…), or value and onChange). */
export type DateTimeInput = { id: string; label: string; error?: string; ref?: Ref<HTMLInputElement> } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'>

function One({ kind, input: { id, label, error, ...rest } }: { kind: 'date' | 'time'; input: DateTimeInput }) {
  return (
    <Field id={id} label={label} error={error}>
      <Input id={id} type={kind} step={kind === 'time' ? 300 : undefined} {...rest} />
    </Field>
  )
}

/**
 * The agenda forms' date and time (a new appointment, a move, a block's
 * move of a client, a block): a date and a time side by side in `className`'s
 * grid (two columns even at 360 px unless the form says otherwise), or — a
 * block, with a start and an end — the date alone, then `between` (its
 * "Dia inteiro"), then the two times side by side, none of them on a whole
 * day. Times go in 5-minute steps, as the free times do.
 */
export function DateTimeFields({
  date,
  time,
  end,
  between,
  className = 'grid grid-cols-2 gap-3',
}: {
  date: DateTimeInput
  /** The time, or a block's start; left out on a whole day. */
  time?: DateTimeInput
  /** A block's end. */
  end?: DateTimeInput
  between?: ReactNode
  className?: string
}) {
  if (end === undefined && between === undefined) {
    return (
      <div className={className}>
        <One kind="date" input={date} />
        {time ? <One kind="time" input={time} /> : null}
      </div>
    )
  }
  return (
    <>
      <One kind="date" input={date} />
      {between}
      {time && end ? (
        <div className={className}>
          <One kind="time" input={time} />
          <One kind="time" input={end} />
        </div>
      ) : null}
    </>
  )
}

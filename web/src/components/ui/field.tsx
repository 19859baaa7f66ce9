import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react'
import { Label } from './label'

type Described = { 'aria-invalid'?: boolean; 'aria-describedby'?: string }

/**
 * A labelled form field: the label is tied to the control by id; a hint and
 * an error (the form schema's message) are shown under it and announced with
 * the control (aria-describedby, aria-invalid).
 */
export function Field({ id, label, hint, error, children }: { id: string; label: ReactNode; hint?: ReactNode; error?: string; children: ReactNode }) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  const only = Children.count(children) === 1 && isValidElement(children) ? (children as ReactElement<Described>) : null
  const control = only && described ? cloneElement(only, { 'aria-invalid': error ? true : undefined, 'aria-describedby': described }) : children
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {control}
      {hint ? (
        // A hint may carry an address (the public link): it breaks anywhere rather than widen a phone's page.
        <p id={`${id}-hint`} className="text-xs text-stone-500 [overflow-wrap:anywhere] dark:text-stone-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A form's error from the server, announced where the form is submitted. */
export function FormError({ message }: { message?: string }) {
  if (!message) return null
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
      {message}
    </p>
  )
}

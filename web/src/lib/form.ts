/**
 * Forms, written one way: a zod schema (zod/mini, small enough for the public
 * pages) says what a valid form is and turns the typed-in strings into the
 * body the mutation sends; react-hook-form keeps the values and the errors.
 * A field's error is shown by <Field error=…> beside it, and a refusal from
 * the server by <FormError> (its pt-BR message, never swallowed).
 *
 * The public pages' light build puts small stand-ins in place of
 * react-hook-form and its zod resolver (src/agende/form.ts); this module is
 * type-checked against both, so it uses only what the stand-ins implement.
 */
import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import * as z from 'zod/mini'
import { errorMessage } from '@/lib/api/client'
import { parseBRL } from '@/lib/format'
import { phoneDigits } from '@/lib/phone'

/** A schema from the strings a form holds to what its mutation sends. */
export type FormSchema<In extends FieldValues = FieldValues, Out = unknown> = z.ZodMiniType<Out, In>

/**
 * A form on a schema: defaultValues are the strings the fields start with;
 * handleSubmit hands the schema's output to the submit function. With
 * validate 'change' the errors and formState.isValid follow every keystroke
 * (for a submit button disabled while the form is invalid); by default a
 * field is checked when submitted, then again as it is corrected.
 */
export function useSchemaForm<In extends FieldValues, Out>(
  schema: FormSchema<In, Out>,
  defaultValues: In,
  validate: 'submit' | 'change' = 'submit',
): UseFormReturn<In, unknown, Out> {
  return useForm<In, unknown, Out>({
    resolver: zodResolver(schema),
    defaultValues: defaultValues as DefaultValues<In>,
    mode: validate === 'change' ? 'onChange' : 'onSubmit',
  })
}

/**
 * Shows a failed mutation in the form: the server's pt-BR message (or the
 * fallback for the unexpected) as the form's error, which <FormError> shows.
 * Returns the message, for a toast too.
 */
export function showServerError<In extends FieldValues>(form: UseFormReturn<In, unknown, unknown>, e: unknown, fallback: string): string {
  const message = errorMessage(e, fallback)
  form.setError('root.server', { type: 'server', message })
  return message
}

/** The form's error from the server, if the last submit failed. */
export function serverError<In extends FieldValues>(form: UseFormReturn<In, unknown, unknown>): string | undefined {
  return form.formState.errors.root?.server?.message
}

// Field rules the forms share, with their pt-BR messages.

/** Text that must not be blank; the value sent is trimmed. */
export const requiredText = (message: string) => z.string().check(z.trim(), z.minLength(1, message))

/** Optional text, trimmed. */
export const optionalText = () => z.string().check(z.trim())

/** A whole number of at least min, typed into a text or number input. */
export const wholeNumber = (message: string, min = 1) =>
  z.pipe(
    z.string().check(z.trim(), z.regex(/^\d+$/, message)),
    z.transform((s) => Number.parseInt(s, 10)),
  ).check(z.refine((n) => n >= min, message))

/** A price in reais as people type it ("150", "150,5", "1.234,56"), sent as cents. */
export const brlCents = (message: string) =>
  z.pipe(
    z.string().check(z.refine((s) => parseBRL(s) !== null, message)),
    z.transform((s) => parseBRL(s) ?? 0),
  )

// phoneDigits lives with the phone rule; it is exported here too for the forms
// that already import it from here.
export { phoneDigits }

/** A Brazilian phone, trimmed; blank allowed (a form says when it needs a phone or an e-mail). */
export const phoneText = (message = 'Telefone inválido. Use DDD + número, como (11) 98888-7777.') =>
  z.string().check(
    z.trim(),
    z.refine((s) => s === '' || phoneDigits(s) !== null, message),
  )

/**
 * The server's e-mail rule (auth.NormalizeEmail): a local part, then a host
 * name of two or more labels of letters, digits and inner hyphens, the last
 * a top-level name of letters (or xn--). "%@%.%" is no address.
 */
export const emailPattern = /^[^\s@]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:\p{L}{2,}|xn--[\p{L}\p{N}-]+)$/u

/** An e-mail address, trimmed; blank allowed unless required. */
export const emailText = (message: string, required = false) =>
  z.string().check(
    z.trim(),
    z.refine((s) => (s === '' ? !required : emailPattern.test(s)), message),
  )

const linkMessage = 'O link da videochamada deve começar com https:// (por exemplo, https://meet.google.com/abc-defg-hij).'

/** A video-call link: empty, or https with a host (the server's place.Link). */
export function isSessionLink(s: string): boolean {
  if (s === '') return true
  if (/\s/.test(s)) return false
  try {
    const u = new URL(s)
    return u.protocol === 'https:' && u.hostname !== '' && u.username === ''
  } catch {
    return false
  }
}

/** An optional https link for a video call, trimmed. */
export const sessionLink = () => z.string().check(z.trim(), z.refine(isSessionLink, linkMessage))

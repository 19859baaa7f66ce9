/**
 * The zod resolver for the light build's form stand-in (./form.ts), in place
 * of '@hookform/resolvers/zod' there: the schema's output when the values
 * are valid, else the first message for each field, keyed as
 * react-hook-form keys flat fields.
 */
import * as z from 'zod/mini'
import type { FieldErrors, Resolver } from './form'

export function zodResolver<In, Out>(schema: z.ZodMiniType<Out, In>): Resolver<In, unknown, Out> {
  return async (values) => {
    const result = z.safeParse(schema, values)
    if (result.success) return { values: result.data, errors: {} }
    const errors: Record<string, { type: string; message: string }> = {}
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? 'root')
      errors[name] ??= { type: issue.code, message: issue.message }
    }
    return { values: {}, errors: errors as FieldErrors<In> }
  }
}

import * as z from 'zod/mini'
import type { Schemas } from '@/lib/api/client'
import type { FormSchema } from '@/lib/form'

// The account forms' rules (SPEC §5), checked in the spec's order: the
// first rule a form breaks marks its fields with a short hint, and the
// spec's text for it is the form's toast (problem); no later rule is
// reported until it is fixed. Values are trimmed before they are sent,
// passwords included (as they always were).

/** The spec's toast for a refused form. */
export type Problem = { title: string; description: string }
type Rule<T> = { fields: (keyof T & string)[] | ((v: T) => (keyof T & string)[]); broken: (v: T) => boolean; hint: string; problem: Problem }
type Form<T extends Record<string, string>, Out> = { schema: FormSchema<T, Out>; problem: (values: T) => Problem | null }

const trimmed = <T extends Record<string, string>>(v: T): T => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x.trim()])) as T

/** A form whose fields are trimmed, then checked rule by rule, the first broken one reported. */
function ordered<T extends Record<string, string>, Out>(keys: (keyof T & string)[], rules: Rule<T>[], out: (v: T) => Out): Form<T, Out> {
  const first = (v: T) => rules.find((r) => r.broken(trimmed(v)))
  const shape = Object.fromEntries(keys.map((k) => [k, z.string().check(z.trim())])) as { [K in keyof T]: z.ZodMiniString<string> }
  const schema = z.pipe(
    z.object(shape).check(
      z.superRefine((v, ctx) => {
        const values = v as unknown as T
        const rule = first(values)
        if (!rule) return
        const fields = typeof rule.fields === 'function' ? rule.fields(values) : rule.fields
        for (const f of fields) ctx.issues.push({ code: 'custom', input: v, path: [f], message: rule.hint })
      }),
    ),
    z.transform((v) => out(v as unknown as T)),
  ) as unknown as FormSchema<T, Out>
  return { schema, problem: (v) => first(v)?.problem ?? null }
}

/** Every one of keys filled in; the blank ones are marked. */
const required = <T extends Record<string, string>>(keys: (keyof T & string)[], problem: Problem): Rule<T> => ({
  fields: (v) => keys.filter((k) => v[k] === ''),
  broken: (v) => keys.some((k) => v[k] === ''),
  hint: 'Campo obrigatório.',
  problem,
})

export type LoginFields = { email: string; password: string }
export const blankLogin: LoginFields = { email: '', password: '' }
export const login = ordered<LoginFields, LoginFields>(
  ['email', 'password'],
  [
    { fields: ['email'], broken: (v) => v.email === '', hint: 'Informe o e-mail.', problem: { title: 'Campos obrigatórios', description: 'Por favor, preencha e-mail e senha.' } },
    { fields: ['password'], broken: (v) => v.password === '', hint: 'Informe a senha.', problem: { title: 'Campos obrigatórios', description: 'Por favor, preencha e-mail e senha.' } },
  ],
  (v) => v,
)

const mismatchHint = 'Digite a mesma senha nos dois campos.'

export type SignupFields = { name: string; email: string; password: string; confirm: string; keyword: string }
export const blankSignup: SignupFields = { name: '', email: '', password: '', confirm: '', keyword: '' }
const signupProblem = (description: string): Problem => ({ title: 'Erro no cadastro', description })
export const signup = ordered<SignupFields, Schemas['SignupRequest']>(
  ['name', 'email', 'password', 'confirm', 'keyword'],
  [
    required<SignupFields>(['name', 'email', 'password', 'confirm', 'keyword'], signupProblem('Por favor, preencha todos os campos obrigatórios.')),
    { fields: ['confirm'], broken: (v) => v.password !== v.confirm, hint: mismatchHint, problem: signupProblem('As senhas não coincidem.') },
    { fields: ['password'], broken: (v) => v.password.length < 6, hint: 'Use pelo menos 6 caracteres.', problem: signupProblem('A senha deve ter pelo menos 6 caracteres.') },
    { fields: ['keyword'], broken: (v) => v.keyword.length < 3, hint: 'Use pelo menos 3 caracteres.', problem: signupProblem('A palavra-chave de recuperação deve ter pelo menos 3 caracteres.') },
  ],
  (v) => ({ name: v.name, email: v.email, password: v.password, recoveryKeyword: v.keyword }),
)

const allFilled: Problem = { title: 'Erro', description: 'Por favor, preencha todos os campos.' }
const mismatch: Problem = { title: 'Senhas não coincidem', description: 'A nova senha e a confirmação devem ser iguais.' }
const short: Problem = { title: 'Senha muito curta', description: 'A nova senha deve ter pelo menos 6 caracteres.' }

export type ResetFields = { email: string; keyword: string; password: string; confirm: string }
export const blankReset: ResetFields = { email: '', keyword: '', password: '', confirm: '' }
export const reset = ordered<ResetFields, Schemas['PasswordResetRequest']>(
  ['email', 'keyword', 'password', 'confirm'],
  [
    required<ResetFields>(['email', 'keyword', 'password', 'confirm'], allFilled),
    { fields: ['confirm'], broken: (v) => v.password !== v.confirm, hint: mismatchHint, problem: mismatch },
    { fields: ['password'], broken: (v) => v.password.length < 6, hint: 'Use pelo menos 6 caracteres.', problem: short },
  ],
  (v) => ({ email: v.email, recoveryKeyword: v.keyword, newPassword: v.password }),
)

export type RecoveryFields = { password: string; confirm: string; keyword: string }
export const blankRecovery: RecoveryFields = { password: '', confirm: '', keyword: '' }
export const recovery = ordered<RecoveryFields, { password: string; recoveryKeyword: string }>(
  ['password', 'confirm', 'keyword'],
  [
    required<RecoveryFields>(['password', 'confirm', 'keyword'], allFilled),
    { fields: ['confirm'], broken: (v) => v.password !== v.confirm, hint: mismatchHint, problem: mismatch },
    { fields: ['password'], broken: (v) => v.password.length < 6, hint: 'Use pelo menos 6 caracteres.', problem: short },
    {
      fields: ['keyword'],
      broken: (v) => v.keyword.length < 3,
      hint: 'Use pelo menos 3 caracteres.',
      problem: { title: 'Erro', description: 'A palavra-chave de recuperação deve ter pelo menos 3 caracteres.' },
    },
  ],
  (v) => ({ password: v.password, recoveryKeyword: v.keyword }),
)

export type RecoveryRequestFields = { email: string }
export const recoveryRequestSchema: FormSchema<RecoveryRequestFields, RecoveryRequestFields> = z.object({
  email: z.string().check(z.trim(), z.minLength(1, 'Informe o e-mail da conta.')),
})

import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { AuthFrame } from '@/components/public-page'
import { PasswordInput } from '@/components/password-input'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError } from '@/lib/api/client'
import { useAuth } from '@/lib/auth'
import { useSchemaForm } from '@/lib/form'
import { blankSignup, signup as rules, type SignupFields } from './auth-forms'

/** The first signup rule a form breaks (SPEC §5), or null. */
export function signupProblem(f: SignupFields): string | null {
  return rules.problem(f)?.description ?? null
}

export default function SignupPage() {
  const { signup } = useAuth()
  const navigate = useNavigate()
  const form = useSchemaForm(rules.schema, blankSignup)
  const { errors, isSubmitting } = form.formState

  const onSubmit = form.handleSubmit(
    async (body) => {
      try {
        await signup(body)
        form.reset()
        toast.success('Conta criada com sucesso! Você tem 7 dias grátis para testar todos os recursos.')
        navigate('/dashboard', { replace: true })
      } catch (err) {
        if (err instanceof ApiError) {
          toast.error('Erro no cadastro', { description: err.message || 'Não foi possível criar a conta. Tente novamente.' })
        } else {
          toast.error('Erro no Sistema', { description: 'Ocorreu um erro inesperado. Tente novamente.' })
        }
      }
    },
    () => {
      const p = rules.problem(form.getValues())
      if (p) toast.error(p.title, { description: p.description })
    },
  )

  return (
    <AuthFrame title="Crie sua conta" subtitle="7 dias grátis, sem cartão de crédito.">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="name" label="Nome completo" error={errors.name?.message}>
          <Input id="name" autoComplete="name" {...form.register('name')} />
        </Field>
        <Field id="email" label="E-mail" error={errors.email?.message}>
          <Input id="email" type="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field id="password" label="Senha" hint="Pelo menos 6 caracteres." error={errors.password?.message}>
          <PasswordInput id="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field id="confirm" label="Confirmar senha" error={errors.confirm?.message}>
          <PasswordInput id="confirm" autoComplete="new-password" {...form.register('confirm')} />
        </Field>
        <Field
          id="keyword"
          label="Palavra-chave de recuperação"
          hint="Ela recupera sua conta se você esquecer a senha. Guarde-a bem (mínimo de 3 caracteres)."
          error={errors.keyword?.message}
        >
          <Input id="keyword" autoComplete="off" {...form.register('keyword')} />
        </Field>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? 'Criando conta...' : 'Criar conta e começar teste grátis'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
        Já tem conta?{' '}
        <Link to="/login" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
          Entrar
        </Link>
      </p>
    </AuthFrame>
  )
}

import { Link, Navigate, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { AuthFrame } from '@/components/public-page'
import { PasswordInput } from '@/components/password-input'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError } from '@/lib/api/client'
import { useAuth } from '@/lib/auth'
import { useSchemaForm } from '@/lib/form'
import { blankLogin, login as rules } from './auth-forms'

export default function LoginPage() {
  const { status, login } = useAuth()
  const navigate = useNavigate()
  const form = useSchemaForm(rules.schema, blankLogin)
  const { errors, isSubmitting, isSubmitSuccessful } = form.formState
  const busy = isSubmitting || isSubmitSuccessful

  if (status === 'signed-in' && !busy) return <Navigate to="/dashboard" replace />

  const onSubmit = form.handleSubmit(
    async ({ email, password }) => {
      try {
        await login(email, password)
        toast.success('Login realizado!', { description: 'Redirecionando para o painel...' })
        navigate('/dashboard', { replace: true })
      } catch (err) {
        const message =
          err instanceof ApiError ? err.message || 'E-mail ou senha incorretos. Verifique seus dados e tente novamente.' : 'Algo deu errado. Tente novamente em alguns minutos.'
        toast.error('Erro no login', { description: message })
        throw err // the submit did not succeed: the form stays usable
      }
    },
    () => {
      const p = rules.problem(form.getValues())
      if (p) toast.error(p.title, { description: p.description })
    },
  )

  return (
    <AuthFrame title="Entrar" subtitle="Acesse o painel da sua agenda.">
      <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-4" noValidate>
        <Field id="email" label="E-mail" error={errors.email?.message}>
          <Input id="email" type="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field id="password" label="Senha" error={errors.password?.message}>
          <PasswordInput id="password" autoComplete="current-password" {...form.register('password')} />
        </Field>
        <div className="text-right text-sm">
          <Link to="/forgot-password" className="text-brand-700 hover:underline dark:text-brand-200">
            Esqueceu sua senha?
          </Link>
        </div>
        <Button type="submit" disabled={busy} size="lg">
          {busy ? 'Entrando...' : 'Entrar'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
        Ainda não tem conta?{' '}
        <Link to="/signup" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
          Cadastre-se grátis
        </Link>
      </p>
      <p className="mt-2 text-center text-sm">
        <Link to="/" className="text-stone-600 hover:underline dark:text-stone-400">
          Voltar para a página inicial
        </Link>
      </p>
    </AuthFrame>
  )
}

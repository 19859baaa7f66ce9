import { Info } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { AuthFrame } from '@/components/public-page'
import { PasswordInput } from '@/components/password-input'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError, NetworkError } from '@/lib/api/client'
import { showServerError, useSchemaForm } from '@/lib/form'
import { useCompleteAccountRecovery } from './api/complete-account-recovery'
import { useRequestAccountRecovery } from './api/request-account-recovery'
import { useResetPassword } from './api/reset-password'
import { blankRecovery, blankReset, recovery, recoveryRequestSchema, reset, type Problem } from './auth-forms'

/** Maps a reset failure to the spec's screen title, and whether to offer the alternatives. */
export function resetOutcome(err: unknown): { title: string; message: string; alternatives: boolean } {
  if (err instanceof NetworkError) return { title: 'Erro', message: 'Erro de conexão. Tente novamente.', alternatives: false }
  if (!(err instanceof ApiError)) return { title: 'Erro', message: 'Ocorreu um erro inesperado. Tente novamente.', alternatives: false }
  switch (err.code) {
    case 'keyword_not_configured':
      return { title: 'Palavra-chave não configurada', message: err.message, alternatives: true }
    case 'keyword_incorrect':
      return { title: 'Palavra-chave incorreta', message: err.message, alternatives: false }
    case 'email_not_found':
      return { title: 'E-mail não encontrado', message: err.message, alternatives: false }
    case 'validation_failed':
      return { title: 'Erro', message: err.message, alternatives: false }
    default:
      return { title: 'Erro na redefinição', message: err.message, alternatives: true }
  }
}

const REDIRECT_MS = 2000

const toastProblem = (p: Problem | null) => p && toast.error(p.title, { description: p.description })

export default function ForgotPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token')
  return token ? <RecoveryLinkForm token={token} /> : <KeywordResetForm />
}

function useRedirectToLogin() {
  const navigate = useNavigate()
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current)
  }, [])
  return () => {
    timer.current = setTimeout(() => navigate('/login'), REDIRECT_MS)
  }
}

function KeywordResetForm() {
  const form = useSchemaForm(reset.schema, blankReset)
  const { errors } = form.formState
  const resetting = useResetPassword()
  const busy = resetting.isPending || resetting.isSuccess
  const [failures, setFailures] = useState(0)
  const [alternatives, setAlternatives] = useState(false)
  const [problem, setProblem] = useState<{ title: string; message: string } | null>(null)
  const redirect = useRedirectToLogin()

  const onSubmit = form.handleSubmit(
    (body) => {
      if (busy) return
      setProblem(null)
      resetting.mutate(body, {
        onSuccess: () => {
          toast.success('Senha redefinida!', { description: 'Entre com a nova senha. Redirecionando...' })
          redirect()
        },
        onError: (err) => {
          const out = resetOutcome(err)
          const misses = out.title === 'Palavra-chave incorreta' ? failures + 1 : failures
          setFailures(misses)
          setProblem(out)
          if (out.alternatives || misses >= 2) setAlternatives(true)
          toast.error(out.title, { description: out.message })
        },
      })
    },
    () => toastProblem(reset.problem(form.getValues())),
  )

  return (
    <AuthFrame title="Redefinir senha" subtitle="Use a palavra-chave de recuperação para criar uma nova senha.">
      <Alert className="mb-4 flex gap-3">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>A palavra-chave de recuperação foi definida por você no momento do cadastro.</span>
      </Alert>
      {problem ? (
        <Alert variant="error" className="mb-4">
          <p className="font-semibold">{problem.title}</p>
          <p>{problem.message}</p>
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="email" label="E-mail" error={errors.email?.message}>
          <Input id="email" type="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field id="keyword" label="Palavra-chave de recuperação" error={errors.keyword?.message}>
          <Input id="keyword" autoComplete="off" {...form.register('keyword')} />
        </Field>
        <Field id="password" label="Nova senha" error={errors.password?.message}>
          <PasswordInput id="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field id="confirm" label="Confirmar nova senha" error={errors.confirm?.message}>
          <PasswordInput id="confirm" autoComplete="new-password" {...form.register('confirm')} />
        </Field>
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Redefinindo...' : 'Redefinir senha'}
        </Button>
      </form>
      {alternatives ? <AlternativeOptions email={form.getValues('email').trim()} /> : null}
      <div className="mt-6 flex justify-between text-sm">
        <Link to="/login" className="text-brand-700 hover:underline dark:text-brand-200">
          Voltar para o login
        </Link>
        <Link to="/signup" className="text-brand-700 hover:underline dark:text-brand-200">
          Criar conta
        </Link>
      </div>
    </AuthFrame>
  )
}

/**
 * The spec's "alternative options". Starting again with the same e-mail works
 * only through a one-time link sent to that address: nothing replaces an
 * account without proof that the person owns the e-mail.
 */
function AlternativeOptions({ email: initial }: { email: string }) {
  const form = useSchemaForm(recoveryRequestSchema, { email: initial })
  const email = form.watch('email')
  const recovery = useRequestAccountRecovery()
  const busy = recovery.isPending
  const sent = recovery.isSuccess

  const send = form.handleSubmit((body) => {
    if (busy) return
    recovery.mutate(body, {
      onError: (err) => toast.error('Erro', { description: showServerError(form, err, 'Ocorreu um erro inesperado. Tente novamente.') }),
    })
  })

  return (
    <section aria-labelledby="alt-title" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-900/20">
      <h2 id="alt-title" className="text-base font-semibold">
        Opções alternativas
      </h2>
      <ol className="mt-3 grid gap-4">
        <li>
          <p className="font-medium">1. Criar nova conta com o mesmo e-mail</p>
          <p className="text-stone-700 dark:text-stone-300">
            Enviaremos um link de uso único (válido por 1 hora) para o seu e-mail. Com ele você define uma nova senha e uma nova palavra-chave, mantendo seus dados.
          </p>
          {sent ? (
            <Alert className="mt-2">Se existir uma conta com este e-mail, o link foi enviado. Confira sua caixa de entrada.</Alert>
          ) : (
            <form onSubmit={send} className="mt-2 grid gap-2 sm:flex sm:items-end">
              <div className="grid flex-1 gap-1">
                <label htmlFor="alt-email" className="text-xs font-medium">
                  E-mail da conta
                </label>
                <Input id="alt-email" type="email" {...form.register('email')} />
              </div>
              <Button type="submit" disabled={busy || !email.trim()}>
                {busy ? 'Enviando...' : 'Enviar link por e-mail'}
              </Button>
            </form>
          )}
        </li>
        <li>
          <p className="font-medium">2. Tentar lembrar a palavra-chave</p>
          <p className="text-stone-700 dark:text-stone-300">Maiúsculas e espaços não importam. Pense no que você escolheu ao criar a conta.</p>
        </li>
        <li>
          <p className="font-medium">3. Falar com o suporte</p>
          <p className="text-stone-700 dark:text-stone-300">Nossa equipe responde em até 24 horas.</p>
        </li>
      </ol>
      <div className="mt-4 flex gap-4">
        <Link to="/signup" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
          Ir para o cadastro
        </Link>
        <Link to="/support" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
          Ir para o suporte
        </Link>
      </div>
    </section>
  )
}

function RecoveryLinkForm({ token }: { token: string }) {
  const form = useSchemaForm(recovery.schema, blankRecovery)
  const { errors } = form.formState
  const complete = useCompleteAccountRecovery()
  const busy = complete.isPending || complete.isSuccess
  const [problem, setProblem] = useState<string | null>(null)
  const redirect = useRedirectToLogin()

  const onSubmit = form.handleSubmit(
    (body) => {
      if (busy) return
      setProblem(null)
      complete.mutate(
        { token, ...body },
        {
          onSuccess: () => {
            toast.success('Senha redefinida!', { description: 'Entre com a nova senha. Redirecionando...' })
            redirect()
          },
          onError: (err) => {
            const out = resetOutcome(err)
            setProblem(out.message)
            toast.error(out.title === 'Erro na redefinição' ? 'Erro na redefinição' : out.title, { description: out.message })
          },
        },
      )
    },
    () => toastProblem(recovery.problem(form.getValues())),
  )

  return (
    <AuthFrame title="Definir nova senha e palavra-chave" subtitle="Link de recuperação de conta">
      {problem ? (
        <Alert variant="error" className="mb-4">
          {problem}
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="password" label="Nova senha" error={errors.password?.message}>
          <PasswordInput id="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field id="confirm" label="Confirmar nova senha" error={errors.confirm?.message}>
          <PasswordInput id="confirm" autoComplete="new-password" {...form.register('confirm')} />
        </Field>
        <Field id="keyword" label="Nova palavra-chave de recuperação" hint="Mínimo de 3 caracteres." error={errors.keyword?.message}>
          <Input id="keyword" autoComplete="off" {...form.register('keyword')} />
        </Field>
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Salvando...' : 'Salvar nova senha'}
        </Button>
      </form>
      <p className="mt-6 text-sm">
        <Link to="/login" className="text-brand-700 hover:underline dark:text-brand-200">
          Voltar para o login
        </Link>
      </p>
    </AuthFrame>
  )
}

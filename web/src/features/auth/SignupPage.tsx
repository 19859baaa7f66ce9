import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { AuthFrame } from '@/components/public-page'
import { PasswordInput } from '@/components/password-input'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError } from '@/lib/api/client'
import { useAuth } from '@/lib/auth'

const empty = { name: '', email: '', password: '', confirm: '', keyword: '' }

/** The first signup rule a form breaks (SPEC §5), or null. */
export function signupProblem(f: typeof empty): string | null {
  const name = f.name.trim()
  const email = f.email.trim()
  const password = f.password.trim()
  const confirm = f.confirm.trim()
  const keyword = f.keyword.trim()
  if (!name || !email || !password || !confirm || !keyword) return 'Por favor, preencha todos os campos obrigatórios.'
  if (password !== confirm) return 'As senhas não coincidem.'
  if (password.length < 6) return 'A senha deve ter pelo menos 6 caracteres.'
  if (keyword.length < 3) return 'A palavra-chave de recuperação deve ter pelo menos 3 caracteres.'
  return null
}

export default function SignupPage() {
  const { signup } = useAuth()
  const navigate = useNavigate()
  const [form, setForm] = useState(empty)
  const [busy, setBusy] = useState(false)
  const set = (k: keyof typeof empty) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [k]: e.target.value }))

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    const problem = signupProblem(form)
    if (problem) {
      toast.error('Erro no cadastro', { description: problem })
      return
    }
    setBusy(true)
    try {
      await signup({
        name: form.name.trim(),
        email: form.email.trim(),
        password: form.password.trim(),
        recoveryKeyword: form.keyword.trim(),
      })
      setForm(empty)
      toast.success('Conta criada com sucesso! Você tem 7 dias grátis para testar todos os recursos.')
      navigate('/dashboard', { replace: true })
    } catch (err) {
      if (err instanceof ApiError) {
        toast.error('Erro no cadastro', { description: err.message || 'Não foi possível criar a conta. Tente novamente.' })
      } else {
        toast.error('Erro no Sistema', { description: 'Ocorreu um erro inesperado. Tente novamente.' })
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame title="Crie sua conta" subtitle="7 dias grátis, sem cartão de crédito.">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="name" label="Nome completo">
          <Input id="name" autoComplete="name" value={form.name} onChange={set('name')} />
        </Field>
        <Field id="email" label="E-mail">
          <Input id="email" type="email" autoComplete="email" value={form.email} onChange={set('email')} />
        </Field>
        <Field id="password" label="Senha" hint="Pelo menos 6 caracteres.">
          <PasswordInput id="password" autoComplete="new-password" aria-describedby="password-hint" value={form.password} onChange={set('password')} />
        </Field>
        <Field id="confirm" label="Confirmar senha">
          <PasswordInput id="confirm" autoComplete="new-password" value={form.confirm} onChange={set('confirm')} />
        </Field>
        <Field
          id="keyword"
          label="Palavra-chave de recuperação"
          hint="Ela recupera sua conta se você esquecer a senha. Guarde-a bem (mínimo de 3 caracteres)."
        >
          <Input id="keyword" autoComplete="off" aria-describedby="keyword-hint" value={form.keyword} onChange={set('keyword')} />
        </Field>
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Criando conta...' : 'Criar conta e começar teste grátis'}
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

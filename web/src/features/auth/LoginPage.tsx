import { useState, type FormEvent } from 'react'
import { Link, Navigate, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { AuthFrame } from '@/components/public-page'
import { PasswordInput } from '@/components/password-input'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError } from '@/lib/api/client'
import { useAuth } from '@/lib/auth'

export default function LoginPage() {
  const { status, login } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)

  if (status === 'signed-in' && !busy) return <Navigate to="/dashboard" replace />

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (busy) return
    if (!email.trim() || !password.trim()) {
      toast.error('Campos obrigatórios', { description: 'Por favor, preencha e-mail e senha.' })
      return
    }
    setBusy(true)
    try {
      await login(email.trim(), password.trim())
      toast.success('Login realizado!', { description: 'Redirecionando para o painel...' })
      navigate('/dashboard', { replace: true })
    } catch (err) {
      if (err instanceof ApiError) {
        toast.error('Erro no login', { description: err.message || 'E-mail ou senha incorretos. Verifique seus dados e tente novamente.' })
      } else {
        toast.error('Erro no login', { description: 'Algo deu errado. Tente novamente em alguns minutos.' })
      }
      setBusy(false)
    }
  }

  return (
    <AuthFrame title="Entrar" subtitle="Acesse o painel da sua agenda.">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field id="email" label="E-mail">
          <Input id="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="password" label="Senha">
          <PasswordInput id="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
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

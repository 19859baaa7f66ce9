import { Link, useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import { AuthFrame } from '@/components/public-page'
import { PasswordInput } from '@/components/password-input'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'
import { useAuth } from '@/lib/auth'
import { useSchemaForm } from '@/lib/form'
import { useInvitation } from './api/invitation'
import { blankRecovery, recovery } from './auth-forms'

/**
 * A professional's invitation (issue 43 §0), opened from the e-mail: the page
 * reads the invitation (a GET changes nothing) and its button creates the
 * professional's own sign-in — a password and a recovery keyword, as at
 * signup — and opens their agenda.
 */
export default function InvitePage() {
  const { token = '' } = useParams()
  const { acceptInvite } = useAuth()
  const navigate = useNavigate()
  const invitation = useInvitation(token)
  const form = useSchemaForm(recovery.schema, blankRecovery)
  const { errors, isSubmitting } = form.formState

  const onSubmit = form.handleSubmit(
    async (body) => {
      try {
        await acceptInvite(token, body)
        toast.success('Acesso criado!', { description: 'Esta é a sua agenda.' })
        navigate('/agenda', { replace: true })
      } catch (err) {
        toast.error('Não foi possível criar seu acesso', { description: errorMessage(err, 'Tente novamente em alguns minutos.') })
      }
    },
    () => {
      const p = recovery.problem(form.getValues())
      if (p) toast.error(p.title, { description: p.description })
    },
  )

  if (invitation.isLoading) {
    return (
      <AuthFrame title="Convite" subtitle="Carregando...">
        <div className="p-6 text-center">
          <Spinner />
        </div>
      </AuthFrame>
    )
  }
  if (!invitation.data) {
    return (
      <AuthFrame title="Convite inválido" subtitle={errorMessage(invitation.error, 'Este convite é inválido, já foi usado ou expirou. Peça um novo convite ao titular da agenda.')}>
        <p className="text-center text-sm">
          <Link to="/login" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
            Já tenho acesso: entrar
          </Link>
        </p>
      </AuthFrame>
    )
  }
  const inv = invitation.data
  return (
    <AuthFrame title="Criar meu acesso" subtitle={`${inv.professional}, você foi convidado(a) para a agenda${inv.practice ? ` de ${inv.practice}` : ''} no Agendei.`}>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <p className="text-sm">
          Você entra com o e-mail <strong className="wrap-anywhere">{inv.email}</strong> e verá a sua agenda e os seus clientes.
        </p>
        <Field id="password" label="Senha" hint="Pelo menos 6 caracteres." error={errors.password?.message}>
          <PasswordInput id="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field id="confirm" label="Confirmar senha" error={errors.confirm?.message}>
          <PasswordInput id="confirm" autoComplete="new-password" {...form.register('confirm')} />
        </Field>
        <Field
          id="keyword"
          label="Palavra-chave de recuperação"
          hint="Ela recupera seu acesso se você esquecer a senha. Guarde-a bem (mínimo de 3 caracteres)."
          error={errors.keyword?.message}
        >
          <Input id="keyword" autoComplete="off" {...form.register('keyword')} />
        </Field>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? 'Criando...' : 'Criar meu acesso'}
        </Button>
      </form>
    </AuthFrame>
  )
}

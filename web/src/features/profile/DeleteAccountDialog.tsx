import { AlertTriangle } from 'lucide-react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { PasswordInput } from '@/components/password-input'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError } from '@/lib/api/client'
import { useAuth } from '@/lib/auth'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { useDeleteAccount } from './api/delete-account'
import { blankDelete, deleteSchema } from './profile-form'

export function DeleteAccountDialog() {
  const { status, user, logout } = useAuth()
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const form = useSchemaForm(deleteSchema, blankDelete)
  const { errors } = form.formState
  const password = form.watch('password')
  const word = form.watch('word')
  const deletion = useDeleteAccount()
  const busy = deletion.isPending

  function reset(next: boolean) {
    setOpen(next)
    if (!next) form.reset()
  }

  const onSubmit = form.handleSubmit(
    (body) => {
      if (busy) return
      if (!user) {
        toast.error('Erro', { description: 'Usuário não encontrado' })
        return
      }
      if (status !== 'signed-in') {
        toast.error('Erro ao excluir conta', { description: 'Sessão inválida. Faça login novamente.' })
        return
      }
      deletion.mutate(body, {
        onSuccess: () => {
          reset(false)
          toast.success('Conta excluída com sucesso', { description: 'Sua conta foi removida permanentemente' })
          // As the spec: a forced, complete sign-out shortly after.
          setTimeout(async () => {
            try {
              localStorage.clear()
              sessionStorage.clear()
            } catch {
              // storage may be unavailable
            }
            await navigate('/', { replace: true })
            await logout('global')
          }, 100)
        },
        onError: (err) => {
          const message = err instanceof ApiError ? err.message : 'Ocorreu um erro inesperado. Tente novamente ou entre em contato com o suporte.'
          toast.error('Erro ao excluir conta', { description: showServerError(form, err, message || 'Erro desconhecido ao excluir conta') })
        },
      })
    },
    (e) => {
      if (e.word) toast.error('Confirmação inválida', { description: "Digite 'EXCLUIR' para confirmar" })
      else if (e.password) toast.error('Senha obrigatória', { description: 'Digite sua senha para confirmar a exclusão' })
    },
  )

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button variant="destructive">Excluir conta</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2 text-red-700 dark:text-red-300">
            <AlertTriangle className="size-5" aria-hidden /> Excluir conta permanentemente
          </DialogTitle>
          <DialogDescription>
            Esta ação não pode ser desfeita. Todos os seus dados — perfil, serviços, profissionais, horários, agendamentos e notificações — serão removidos.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <Field id="delete-password" label="Senha" error={errors.password?.message}>
            <PasswordInput id="delete-password" autoComplete="current-password" {...form.register('password')} />
          </Field>
          <Field id="delete-word" label="Digite EXCLUIR para confirmar" error={errors.word?.message}>
            <Input id="delete-word" autoComplete="off" {...form.register('word')} />
          </Field>
          <FormError message={serverError(form)} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => reset(false)}>
              Cancelar
            </Button>
            <Button type="submit" variant="destructive" disabled={busy || !password || !word}>
              {busy ? 'Excluindo...' : 'Excluir minha conta'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { brDate } from '@/lib/format'
import { useInviteMember, useRevokeMember, type Member } from './api/members'

type Professional = Schemas['Professional']

const stateText: Record<Member['state'], string> = {
  invited: 'Convite enviado',
  active: 'Entra com o próprio acesso',
  revoked: 'Acesso encerrado',
}

/**
 * A professional's own sign-in on the team's table (issue 43 §0): its state
 * in words, and the one action it allows — invite (again), or end the access.
 * Ending asks first: it signs the professional out everywhere at once.
 */
export function MemberAccess({
  professional: p,
  member,
  confirm,
}: {
  professional: Professional
  member: Member | undefined
  confirm: (o: { title: string; description: string; action: string; destructive?: boolean }) => Promise<boolean>
}) {
  const [inviting, setInviting] = useState(false)
  const revoke = useRevokeMember()

  async function end() {
    const active = member?.state === 'active'
    const yes = await confirm({
      title: active ? `Encerrar o acesso de ${p.name}?` : `Cancelar o convite de ${p.name}?`,
      description: active
        ? 'As sessões abertas terminam agora e o profissional não consegue mais entrar. Os atendimentos e os clientes continuam na sua agenda.'
        : 'O link enviado deixa de funcionar.',
      action: active ? 'Encerrar acesso' : 'Cancelar convite',
      destructive: true,
    })
    if (!yes) return
    revoke.mutate(p.id, {
      onSuccess: () => toast.success(active ? `Acesso de ${p.name} encerrado` : 'Convite cancelado'),
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível encerrar o acesso.') }),
    })
  }

  return (
    <div className="grid justify-items-start gap-1 text-sm">
      {member ? (
        <span>
          {stateText[member.state]}
          {member.state === 'invited' && member.expiresAt ? <span className="text-stone-600 dark:text-stone-400"> (vale até {brDate(member.expiresAt.slice(0, 10))})</span> : null}
        </span>
      ) : (
        <span className="text-stone-600 dark:text-stone-400">Sem acesso próprio</span>
      )}
      <div className="flex flex-wrap gap-1">
        {member?.state === 'active' ? null : (
          <Button variant="outline" size="sm" onClick={() => setInviting(true)} aria-label={`${member ? 'Convidar de novo' : 'Convidar para entrar'}: ${p.name}`}>
            {member ? 'Convidar de novo' : 'Convidar para entrar'}
          </Button>
        )}
        {member && member.state !== 'revoked' ? (
          <Button variant="ghost" size="sm" className="text-red-700 dark:text-red-300" onClick={end} disabled={revoke.isPending}>
            {member.state === 'active' ? 'Encerrar acesso' : 'Cancelar convite'}
          </Button>
        ) : null}
      </div>
      <Dialog open={inviting} onOpenChange={setInviting}>
        <DialogContent>{inviting ? <InviteForm professional={p} member={member} onDone={() => setInviting(false)} /> : null}</DialogContent>
      </Dialog>
    </div>
  )
}

function InviteForm({ professional: p, member, onDone }: { professional: Professional; member: Member | undefined; onDone: () => void }) {
  const [email, setEmail] = useState(member?.email ?? p.email ?? '')
  const [error, setError] = useState('')
  const invite = useInviteMember()

  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (email.trim() === '') return setError('Informe o e-mail do profissional para enviar o convite.')
    invite.mutate(
      { id: p.id, email: email.trim() },
      {
        // Said only once the server queued the e-mail.
        onSuccess: (m) => {
          toast.success('Convite enviado', { description: `${p.name} recebe em ${m.email} um link válido por 7 dias.` })
          onDone()
        },
        onError: (err) => setError(errorMessage(err, 'Não foi possível enviar o convite.')),
      },
    )
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Convidar {p.name} para entrar</DialogTitle>
        <DialogDescription>
          {p.name} recebe um link para criar a própria senha. Com ele, vê a própria agenda e os próprios clientes, e marca e remarca os próprios
          atendimentos. Configurações, equipe, relatórios e valores continuam só com você.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <Field id="invite-email" label="E-mail do profissional" error={error || undefined}>
          <Input id="invite-email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <DialogFooter>
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? 'Enviando...' : 'Enviar convite'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}

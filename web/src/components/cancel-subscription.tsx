import { useState } from 'react'
import { toast } from 'sonner'
import { errorMessage } from '@/lib/api/client'
import { useCancelSubscription } from '@/lib/api/endpoints/cancel-subscription'
import { formatInstant } from '@/lib/dates'
import { Button } from './ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from './ui/dialog'

/** The cancel button with its confirmation dialog and the spec's toasts. */
export function CancelSubscription({ onCancelled }: { onCancelled?: (date: string) => void }) {
  const [open, setOpen] = useState(false)
  const cancel = useCancelSubscription()
  const busy = cancel.isPending
  function confirm() {
    cancel.mutate(undefined, {
      onSuccess: ({ cancellationDate }) => {
        const date = formatInstant(cancellationDate)
        toast.success('Assinatura cancelada', { description: `Sua assinatura será cancelada em ${date}. Você manterá acesso até essa data.` })
        setOpen(false)
        onCancelled?.(date)
      },
      onError: (e) => toast.error('Erro ao cancelar', { description: errorMessage(e, 'Não foi possível cancelar sua assinatura. Tente novamente.') }),
    })
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">Cancelar assinatura</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancelar assinatura?</DialogTitle>
          <DialogDescription>A renovação é interrompida e você mantém o acesso até o fim do período já pago. Você pode assinar de novo quando quiser.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Manter assinatura
          </Button>
          <Button variant="destructive" onClick={confirm} disabled={busy}>
            {busy ? 'Cancelando...' : 'Confirmar cancelamento'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { cancelSubscription, subscriptionKey } from '@/lib/api/billing'
import { Button } from './ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from './ui/dialog'

/** The cancel button with its confirmation dialog and the spec's toasts. */
export function CancelSubscription({ onCancelled }: { onCancelled?: (date: string) => void }) {
  const qc = useQueryClient()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  async function confirm() {
    setBusy(true)
    try {
      const { cancellationDate } = await cancelSubscription()
      const date = new Date(cancellationDate).toLocaleDateString('pt-BR')
      toast.success('Assinatura cancelada', { description: `Sua assinatura será cancelada em ${date}. Você manterá acesso até essa data.` })
      setOpen(false)
      await qc.invalidateQueries({ queryKey: subscriptionKey })
      onCancelled?.(date)
    } catch {
      toast.error('Erro ao cancelar', { description: 'Não foi possível cancelar sua assinatura. Tente novamente.' })
    } finally {
      setBusy(false)
    }
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

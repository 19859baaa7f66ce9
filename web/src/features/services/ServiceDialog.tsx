import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { Schemas } from '@/lib/api/client'
import { ServiceForm } from './ServiceForm'

type Props = { open: boolean; onOpenChange: (open: boolean) => void; service: Schemas['Service'] | null }

/** The 'Novo Serviço' / 'Editar Serviço' dialog; closing resets the form. */
export function ServiceDialog({ open, onOpenChange, service }: Props) {
  const close = () => onOpenChange(false)
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {open ? (
          <>
            <DialogHeader>
              <DialogTitle>{service ? 'Editar Serviço' : 'Novo Serviço'}</DialogTitle>
              <DialogDescription>Nome, duração e preço aparecem na sua página de agendamento.</DialogDescription>
            </DialogHeader>
            <ServiceForm
              key={service?.id ?? 'new'}
              variant="dialog"
              service={service}
              idPrefix="svc-"
              onDone={close}
              onCancel={close}
              footer={(buttons) => <DialogFooter>{buttons}</DialogFooter>}
            />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  )
}

import { useState, type ReactNode } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'

type Disconnect = { mutate: (professionalId: string, o: { onSuccess: () => void; onError: () => void }) => void; isPending: boolean }

/**
 * A calendar source's 'Desconectar' (the iCal address, CalDAV, Google), asked first as every connection's is: it
 * frees the professional's busy times on the public page at once, so a stray tap must not (issue 42 §5, the
 * connection card's rule).
 */
export function DisconnectSource({
  professionalId,
  label,
  children,
  question,
  description,
  done,
  remove,
}: {
  professionalId: string
  /** The button's whole name ('Desconectar CalDAV — Ana'). */
  label: string
  children: ReactNode
  question: string
  description: string
  done: { title: string; description: string }
  remove: Disconnect
}) {
  const [asking, setAsking] = useState(false)
  return (
    <>
      <Button type="button" size="sm" variant="outline" disabled={remove.isPending} aria-label={label} onClick={() => setAsking(true)}>
        {children}
      </Button>
      <ConfirmDialog
        open={asking}
        title={question}
        description={description}
        action="Desconectar"
        destructive
        onDismiss={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          remove.mutate(professionalId, {
            onSuccess: () => toast.success(done.title, { description: done.description }),
            onError: () => toast.error('Erro', { description: 'Não foi possível desconectar. Tente novamente.' }),
          })
        }}
      />
    </>
  )
}

import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { cn } from '@/lib/utils'
import { Button } from './button'
import { sheetActionsClass, sheetClass } from './sheet'

export type ConfirmOptions = {
  title: string
  description: ReactNode
  /** The action's own words ('Excluir serviço'), never a bare 'OK'. */
  action: string
  /** The way back: 'Cancelar', unless that would read as the action itself ('Manter agendamento'). */
  dismiss?: string
  destructive?: boolean
}

type Props = ConfirmOptions & {
  open: boolean
  /** Choices that go with the answer (checkboxes), between the description and the buttons. */
  children?: ReactNode
  onConfirm: () => void
  onDismiss: () => void
}

/**
 * The app's one confirmation, in place of the browser's confirm(): an alert
 * dialog shaped like every other dialog (a bottom sheet on phones). It is the
 * platform's modal <dialog>, so the page behind is inert, Escape answers
 * "no", and it stays small enough for the public pages. Render it where the
 * question is asked — inside the dialog it comes from, if any — and it opens
 * above everything.
 */
export function ConfirmDialog({ open, title, description, action, dismiss = 'Cancelar', destructive = false, children, onConfirm, onDismiss }: Props) {
  const ref = useRef<HTMLDialogElement>(null)
  const back = useRef<HTMLButtonElement>(null)
  const id = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      dialog.showModal()
      // The safe answer has the focus, so a hurried Enter does no harm.
      back.current?.focus()
    } else if (!open && dialog.open) {
      dialog.close()
    }
  }, [open])
  useEffect(() => {
    if (!open) return
    // Escape answers this question only: a dialog it was asked from (Radix listens on the document) must not close too.
    const keep = (e: KeyboardEvent) => {
      if (e.key === 'Escape') e.stopPropagation()
    }
    window.addEventListener('keydown', keep, true)
    return () => window.removeEventListener('keydown', keep, true)
  }, [open])
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      // Its own type, whatever it sits in (an agenda block's 11 px note, a form).
      className={cn(sheetClass, 'hidden text-base font-normal tracking-normal open:grid backdrop:bg-black/50')}
      onCancel={(e) => {
        e.preventDefault()
        onDismiss()
      }}
      // Its clicks and keys stay in it: the grid or form it is rendered in never sees them.
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
    >
      {/* Closed, it holds nothing: its words are not on the page until asked. */}
      {open ? (
        <>
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          <div id={`${id}-text`} className="text-sm text-stone-600 dark:text-stone-400">
            {description}
          </div>
          {children}
          <div className={sheetActionsClass}>
            <Button ref={back} type="button" variant="outline" onClick={onDismiss}>
              {dismiss}
            </Button>
            <Button type="button" variant={destructive ? 'destructive' : 'default'} onClick={onConfirm}>
              {action}
            </Button>
          </div>
        </>
      ) : null}
    </dialog>
  )
}

/**
 * `const [confirm, confirmation] = useConfirm()`, then
 * `if (!(await confirm({ title, description, action }))) return` — and render
 * `{confirmation}` in the component.
 */
export function useConfirm(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const [asked, setAsked] = useState<{ options: ConfirmOptions; open: boolean; answer: (yes: boolean) => void } | null>(null)
  const confirm = useCallback((options: ConfirmOptions) => new Promise<boolean>((answer) => setAsked({ options, open: true, answer })), [])
  const reply = (yes: boolean) => {
    asked?.answer(yes)
    setAsked((a) => a && { ...a, open: false })
  }
  const confirmation = asked ? <ConfirmDialog {...asked.options} open={asked.open} onConfirm={() => reply(true)} onDismiss={() => reply(false)} /> : null
  return [confirm, confirmation]
}

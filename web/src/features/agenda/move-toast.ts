import { toast } from 'sonner'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { longDate } from '@/lib/format'
import type { Move } from './api/reschedule-appointment'
import { noticeText, type NoticeChannel } from './ClientNotice'

type Appointment = Schemas['Appointment']

/**
 * After a drop in the agenda moved an appointment (silently, at once): a
 * toast with "Desfazer" — which moves it back through the same reschedule
 * as any move, so a time taken meanwhile is refused and said — and "Avisar
 * cliente", which has the server send the notice "Remarcar" would have sent
 * and then says the channel that carried it (or, with none, offers the
 * rescheduling message on WhatsApp from the appointment's details).
 */
export function announceMove(p: {
  was: { date: string; time: string; professionalId: string }
  moved: Appointment
  move: (v: { id: string; body: Move }) => Promise<Appointment>
  tell: (id: string) => Promise<{ channel: NoticeChannel }>
  details: (a: Appointment) => void
}) {
  let told = false
  const undo = {
    label: 'Desfazer',
    onClick: () =>
      void p
        // The place it came from was its own: back there even outside the hours; the client told of the move is told again.
        .move({ id: p.moved.id, body: { date: p.was.date, time: p.was.time, professionalId: p.was.professionalId, outsideHours: true, notifyClient: told, following: false } })
        .then((back) =>
          toast.success('Remarcação desfeita', {
            description: `${back.clientName}: de volta a ${longDate(back.date)} às ${back.time}.${told ? ` ${noticeText(back.notice ?? '')}` : ''}`,
          }),
        )
        .catch((e: unknown) => toast.error('Não foi possível desfazer', { description: errorMessage(e, 'Tente novamente.') })),
  }
  const notify = {
    label: 'Avisar cliente',
    onClick: () =>
      void p
        .tell(p.moved.id)
        .then(({ channel }) => {
          told = channel !== 'none'
          if (channel === 'none') {
            toast.warning(noticeText(channel), {
              description: `${p.moved.clientName} não tem e-mail nem WhatsApp automático. Envie a remarcação pelo WhatsApp.`,
              duration: 15000,
              action: { label: 'Enviar pelo WhatsApp', onClick: () => p.details(p.moved) },
              cancel: undo,
            })
          } else {
            toast.success(noticeText(channel), { description: `${p.moved.clientName}: ${longDate(p.moved.date)} às ${p.moved.time}.`, duration: 10000, action: undo })
          }
        })
        .catch((e: unknown) => toast.error('Não foi possível avisar', { description: errorMessage(e, 'Tente novamente.') })),
  }
  toast.success('Agendamento remarcado', {
    description: `${p.moved.clientName}: ${longDate(p.moved.date)} às ${p.moved.time}. O cliente ainda não foi avisado.`,
    duration: 15000,
    action: undo,
    cancel: notify,
  })
}

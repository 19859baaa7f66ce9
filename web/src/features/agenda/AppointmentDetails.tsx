import { Mail, MessageCircle } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { ApiError, type Schemas } from '@/lib/api/client'
import { timeLocal, todayLocal } from '@/lib/dates'
import { useSetAppointmentStatus, type AppointmentStatus } from './api/set-appointment-status'
import { ClientLink, clientPath } from '@/components/client-link'
import { StatusBadge } from '@/components/status-badge'
import { AnswerBadge } from '@/components/answer-badge'
import { WhatsAppMessages } from '@/components/whatsapp-messages'
import { whatsappFor } from '@/lib/whatsapp'
import { ClientNotice, noticeText, type NoticeChannel } from './ClientNotice'
import { RescheduleForm } from './RescheduleForm'
import { WhatsAppDeliveries } from './WhatsAppDeliveries'
import { DepositPanel } from './DepositPanel'
import { PaymentPanel } from './PaymentPanel'
import { formatBRL, longDate, statusLabel } from '@/lib/format'
import { formatPhone } from '@/lib/phone'
import { useIsProfessional } from '@/lib/auth'

type Appointment = Schemas['Appointment']

/** Every field of an appointment, with links to reach the client, and the status actions. */
export function AppointmentDetails({
  appointment: a,
  onChanged,
  footer = (buttons) => <div className="flex flex-wrap gap-2">{buttons}</div>,
}: {
  appointment: Appointment
  onChanged?: (a: Appointment) => void
  /** Lays out the status buttons (a dialog makes them its action bar). */
  footer?: (buttons: ReactNode) => ReactNode
}) {
  const teamMember = useIsProfessional()
  const change = useSetAppointmentStatus()
  const busy = change.isPending
  const [moving, setMoving] = useState(false)
  // Cancelling asks once, with what goes with it: the rest of a series, and a word to the client.
  const [cancelling, setCancelling] = useState<{ following: boolean; notifyClient: boolean } | null>(null)
  // The last cancel or move that asked to tell the client: how it went, as the server answered.
  const [notice, setNotice] = useState<{ kind: 'cancel' | 'move'; channel: NoticeChannel; appointment: Appointment } | null>(null)
  // A client can be told of a cancellation by e-mail, or by the owner on WhatsApp with the message ready.
  const reachable = a.clientEmail !== '' || whatsappFor(a.clientPhone) !== undefined
  // Completed and no-show are marked once the appointment has begun, and the
  // reminder and confirmation go only before it (the server checks the
  // start in the owner's zone).
  const now = new Date()
  const begun = `${a.date} ${a.time}` <= `${todayLocal(now)} ${timeLocal(now)}`

  function setStatus(status: AppointmentStatus, { following = false, notifyClient = false } = {}) {
    change.mutate(
      { id: a.id, status, ...(notifyClient ? { notifyClient } : {}), ...(following ? { following } : {}) },
      {
        onSuccess: (updated) => {
          const told = updated.notice ? ` ${noticeText(updated.notice)}` : ''
          toast.success('Status atualizado', { description: status === 'no_show' ? 'Marcado como não compareceu.' : `Agendamento ${statusLabel(status).toLowerCase()}.${told}` })
          setNotice(updated.notice ? { kind: 'cancel', channel: updated.notice, appointment: updated } : null)
          onChanged?.(updated)
        },
        onError: (e) => {
          // A refusal the owner can act on (a re-confirm over a taken time) says why; anything else stays generic.
          const refused = e instanceof ApiError && e.status >= 400 && e.status < 500 && e.message
          toast.error('Erro', { description: refused ? e.message : 'Não foi possível atualizar o agendamento. Tente novamente.' })
        },
      },
    )
  }

  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm wrap-anywhere">
        <dt className="text-stone-600 dark:text-stone-400">Cliente</dt>
        <dd className="font-medium">
          <ClientLink appointment={a} className="text-brand-700 dark:text-brand-200" />
        </dd>
        {a.clientEmail ? (
          <>
            <dt className="text-stone-600 dark:text-stone-400">E-mail</dt>
            <dd>
              <a className="inline-flex items-center gap-1 text-brand-700 hover:underline dark:text-brand-200" href={`mailto:${a.clientEmail}`}>
                <Mail className="size-4" aria-hidden /> {a.clientEmail}
              </a>
            </dd>
          </>
        ) : null}
        {a.clientPhone ? (
          <>
            <dt className="text-stone-600 dark:text-stone-400">Telefone</dt>
            <dd>
              <a className="inline-flex items-center gap-1 text-brand-700 hover:underline dark:text-brand-200" href={whatsappFor(a.clientPhone)} target="_blank" rel="noreferrer">
                <MessageCircle className="size-4" aria-hidden /> {formatPhone(a.clientPhone)}
              </a>
            </dd>
          </>
        ) : null}
        <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
        <dd>{a.professionalName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
        <dd>
          {a.serviceName} · {a.duration} min · {formatBRL(a.priceCents)}
        </dd>
        <dt className="text-stone-600 dark:text-stone-400">Data</dt>
        <dd>{longDate(a.date)}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Horário</dt>
        <dd>{a.time}</dd>
        {a.notes ? (
          <>
            <dt className="text-stone-600 dark:text-stone-400">Observações</dt>
            <dd className="whitespace-pre-line">{a.notes}</dd>
          </>
        ) : null}
        <dt className="text-stone-600 dark:text-stone-400">Status</dt>
        <dd>
          <StatusBadge status={a.status} />
        </dd>
        <dt className="text-stone-600 dark:text-stone-400">Resposta do cliente</dt>
        <dd>
          <AnswerBadge answer={a.answer} />
        </dd>
      </dl>
      {/* The health record (issue 43) opens from an appointment once it has begun, for a client with a page. */}
      {begun && clientPath(a) ? (
        <p className="text-sm">
          <Link to={`${clientPath(a)}/prontuario?appointment=${encodeURIComponent(a.id)}`} className="font-medium text-brand-700 hover:underline dark:text-brand-200">
            Abrir prontuário
          </Link>
        </p>
      ) : null}
      {/* The deposit, the payment, the messages' deliveries and the owner's message templates are the owner's (issue 43). */}
      {teamMember ? null : (
        <>
          <DepositPanel appointmentId={a.id} clientName={a.clientName} clientPhone={a.clientPhone} />
          <PaymentPanel appointmentId={a.id} />
          <WhatsAppDeliveries appointmentId={a.id} />
          {a.status === 'confirmed' && !begun ? <WhatsAppMessages appointment={a} /> : null}
        </>
      )}
      {moving ? (
        <RescheduleForm
          appointment={a}
          onDone={(moved) => {
            setMoving(false)
            setNotice(moved.notice ? { kind: 'move', channel: moved.notice, appointment: moved } : null)
            onChanged?.(moved)
          }}
          onCancel={() => setMoving(false)}
        />
      ) : null}
      {notice ? <ClientNotice kind={notice.kind} channel={notice.channel} appointment={notice.appointment} /> : null}
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancelar este agendamento?"
        description={`${a.clientName}, ${longDate(a.date)} às ${a.time}: o horário fica livre para outros clientes.`}
        action="Cancelar agendamento"
        dismiss="Manter agendamento"
        destructive
        onDismiss={() => setCancelling(null)}
        onConfirm={() => {
          setStatus('cancelled', cancelling ?? {})
          setCancelling(null)
        }}
      >
        {a.seriesId != null || reachable ? (
          <div className="grid gap-2 text-sm">
            {a.seriesId != null ? (
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  className="size-4 shrink-0 accent-brand-700"
                  checked={cancelling?.following ?? false}
                  onChange={(e) => setCancelling((c) => c && { ...c, following: e.target.checked })}
                />
                Cancelar também as próximas sessões desta série
              </label>
            ) : null}
            {reachable ? (
              // Which channels carry it is the server's to know (the e-mail with the invite that removes the event,
              // WhatsApp when a number carries it, push): the answer says which did, or that none could and the
              // cancellation is ready to send on WhatsApp. The question promises no channel.
              <div className="grid gap-1">
                <label className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    className="size-4 shrink-0 accent-brand-700"
                    checked={cancelling?.notifyClient ?? false}
                    aria-describedby="cancel-notify-how"
                    onChange={(e) => setCancelling((c) => c && { ...c, notifyClient: e.target.checked })}
                  />
                  {`Avisar ${a.clientName} do cancelamento`}
                </label>
                <p id="cancel-notify-how" className="pl-6 text-xs text-stone-600 dark:text-stone-400">
                  Pelo que o cliente deixou: e-mail, WhatsApp ou notificação no celular. Se nada puder sair, a mensagem fica pronta para você enviar pelo WhatsApp.
                </p>
              </div>
            ) : null}
          </div>
        ) : null}
      </ConfirmDialog>
      {/* While moving, the sheet's only actions are the move's own ("Voltar", "Confirmar remarcação"). */}
      {moving ? null : footer(
        <>
          {a.status === 'confirmed' || a.status === 'awaiting_deposit' ? (
            <Button variant="outline" size="sm" disabled={busy} onClick={() => setMoving(true)}>
              Remarcar
            </Button>
          ) : null}
          {/* A hold awaiting its deposit is confirmed by "Sinal recebido" (the deposit's panel), not by a bare status. */}
          {a.status !== 'confirmed' && a.status !== 'awaiting_deposit' ? (
            <Button variant="outline" size="sm" disabled={busy} onClick={() => setStatus('confirmed')}>
              Confirmar
            </Button>
          ) : null}
          {a.status !== 'completed' && begun ? (
            <Button variant="outline" size="sm" disabled={busy} onClick={() => setStatus('completed')}>
              Marcar como concluído
            </Button>
          ) : null}
          {a.status !== 'no_show' && a.status !== 'cancelled' && begun ? (
            <Button variant="outline" size="sm" disabled={busy} onClick={() => setStatus('no_show')}>
              Não compareceu
            </Button>
          ) : null}
          {a.status !== 'cancelled' ? (
            <Button variant="destructive" size="sm" disabled={busy} onClick={() => setCancelling({ following: false, notifyClient: reachable })}>
              Cancelar agendamento
            </Button>
          ) : null}
        </>,
      )}
    </div>
  )
}

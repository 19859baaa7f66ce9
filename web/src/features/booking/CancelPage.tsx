import { CalendarX } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { useParams } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { useConfirm } from '@/components/ui/confirm-dialog'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api/client'
import { formatInstant } from '@/lib/dates'
import { longDate, priceText } from '@/lib/format'
import { whatsappFor } from '@/lib/whatsapp'
import { useCancelBooking } from './api/cancel-booking'
import { useChargeDeposit } from './api/charge-deposit'
import { useCancellation } from './api/get-cancellation'
import { useRescheduleBooking } from './api/reschedule-booking'
import { useRescheduleTimes } from './api/get-reschedule-times'
import { PracticeHelp } from './PracticeHelp'
import { PushButton } from './PushButton'

const PixCard = lazy(() => import('./PixCard'))
const ClientRecordCopy = lazy(() => import('./ClientRecordCopy'))

/**
 * The client's private page, reached from the confirmation e-mail, the
 * confirmation card's link or the owner's WhatsApp message, to cancel or
 * move a booking. (A reminder's one-tap answer, /resposta/{token}, is its own
 * page module, AnswerPage.tsx.)
 */
export default function CancelPage() {
  const { token = '' } = useParams()
  const { data, error, isLoading } = useCancellation(token)
  const cancellation = useCancelBooking()
  const charging = useChargeDeposit()
  const busy = cancellation.isPending
  const [confirm, confirmation] = useConfirm()
  const [record, setRecord] = useState(false)
  if (isLoading) return <PageSpinner />
  if (error || !data) {
    return (
      <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
        <h1 className="text-2xl font-semibold">{error instanceof ApiError && error.code === 'link_expired' ? 'Link expirado' : 'Link de cancelamento inválido'}</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">{error instanceof ApiError ? error.message : 'Não foi possível carregar o agendamento.'}</p>
      </main>
    )
  }
  // 'Ver meu prontuário': the copy in place of the booking, so it prints alone.
  if (record) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <ClientRecordCopy token={token} onClose={() => setRecord(false)} />
      </Suspense>
    )
  }
  async function cancel() {
    const yes = await confirm({
      title: 'Cancelar este agendamento?',
      description: 'O horário fica livre para outras pessoas.',
      action: 'Cancelar agendamento',
      dismiss: 'Manter agendamento',
      destructive: true,
    })
    if (!yes) return
    cancellation.mutate(token, {
      onSuccess: () => toast.success('Agendamento cancelado', { description: 'O horário foi liberado.' }),
      onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível cancelar. Tente novamente.') }),
    })
  }
  return (
    <main className="mx-auto max-w-lg px-4 py-12">
      <h1 className="text-2xl font-bold tracking-tight">Seu agendamento</h1>
      {/* A deposit's booking says where it stands; the page asks again while it is due (depositPoll), so the change shows without a reload. */}
      {data.status === 'awaiting_deposit' ? (
        <p role="status" className="mt-2 font-medium text-amber-800 dark:text-amber-200">
          Aguardando sinal
        </p>
      ) : data.status === 'confirmed' && data.deposit?.state === 'paid' ? (
        <p role="status" className="mt-2 font-medium text-green-700 dark:text-green-300">
          Sinal recebido — agendamento confirmado
        </p>
      ) : null}
      <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-stone-200 bg-white p-5 text-sm dark:border-stone-800 dark:bg-stone-900">
        <dt className="text-stone-600 dark:text-stone-400">Com</dt>
        <dd>{data.ownerName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
        <dd>{data.professionalName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
        <dd>{data.serviceName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Data</dt>
        <dd>{longDate(data.date)}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Horário</dt>
        <dd>{data.time}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Valor</dt>
        <dd>{priceText(data.priceCents)}</dd>
      </dl>
      {data.status === 'confirmed' || data.status === 'awaiting_deposit' ? <PushButton token={token} /> : null}
      {data.status === 'awaiting_deposit' && data.deposit?.state === 'pending' ? (
        <Suspense fallback={null}>
          <PixCard
            token={token}
            deposit={data.deposit}
            charge={{
              run: () =>
                charging.mutate(token, {
                  onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível gerar o código Pix. Tente novamente.') }),
                }),
              pending: charging.isPending,
            }}
          />
        </Suspense>
      ) : null}
      {data.status === 'cancelled' ? (
        <p role="status" className="mt-6 flex items-center gap-2 font-medium text-red-700 dark:text-red-300">
          <CalendarX className="size-5" aria-hidden /> Agendamento cancelado
        </p>
      ) : data.cancellable ? (
        <>
          {data.username && data.professionalId && data.serviceId ? <Reschedule token={token} current={data} /> : null}
          <Button variant="destructive" className="mt-6 w-full" size="lg" onClick={cancel} disabled={busy}>
            {busy ? 'Cancelando...' : 'Cancelar agendamento'}
          </Button>
          {confirmation}
        </>
      ) : data.cancelUntil && new Date(`${data.date}T${data.time}:00`) > new Date() ? (
        <p className="mt-6 text-sm text-stone-600 dark:text-stone-400">
          O prazo para cancelar por aqui terminou em {formatInstant(data.cancelUntil, undefined, true)}. Para
          cancelar ou remarcar, entre em contato com {data.ownerName}
          {whatsappFor(data.ownerWhatsapp) ? (
            <>
              {' '}
              <a
                className="font-medium text-brand-700 underline dark:text-brand-200"
                href={whatsappFor(data.ownerWhatsapp, `Olá! Preciso cancelar ou remarcar meu horário de ${data.serviceName} em ${longDate(data.date)} às ${data.time}.`)}
                target="_blank"
                rel="noreferrer"
              >
                pelo WhatsApp
              </a>
            </>
          ) : null}
          .
        </p>
      ) : (
        <p className="mt-6 text-sm text-stone-600 dark:text-stone-400">Este agendamento não pode mais ser cancelado por aqui.</p>
      )}
      <PracticeHelp whatsapp={data.ownerWhatsapp} email={data.ownerContactEmail} />
      {/* The client's copy of their prontuário, when the professional allowed it (issue 43); the server says if there is one. */}
      <p className="mt-6 text-sm">
        <button type="button" className="font-medium text-brand-700 underline dark:text-brand-200" onClick={() => setRecord(true)}>
          Ver meu prontuário
        </button>
      </p>
    </main>
  )
}

type Current = { username: string; professionalId: string; serviceId: string; date: string; time: string }

/** 'Remarcar': another day and one of its free times, with the same professional and service. */
function Reschedule({ token, current }: { token: string; current: Current }) {
  // A reminder's "Preciso remarcar" opens the page here (?remarcar=1).
  const [open, setOpen] = useState(() => new URLSearchParams(window.location.search).has('remarcar'))
  const [date, setDate] = useState(current.date)
  const [time, setTime] = useState('')
  const times = useRescheduleTimes(token, date, { enabled: open && date !== '' })
  const move = useRescheduleBooking()
  if (!open) {
    return (
      <Button variant="outline" className="mt-6 w-full" size="lg" onClick={() => setOpen(true)}>
        Remarcar
      </Button>
    )
  }
  const free = (times.data?.times ?? []).filter((t) => date !== current.date || t !== current.time)
  return (
    <form
      className="mt-6 grid gap-3 rounded-2xl border border-stone-200 p-4 dark:border-stone-800"
      aria-label="Remarcar"
      onSubmit={(e) => {
        e.preventDefault()
        move.mutate(
          { token, date, time },
          {
            onSuccess: (c) => {
              toast.success('Agendamento remarcado', { description: `${longDate(c.date)} às ${c.time}.` })
              setOpen(false)
              setTime('')
            },
            onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível remarcar. Tente novamente.') }),
          },
        )
      }}
    >
      <label className="grid gap-1 text-sm font-medium">
        Nova data
        <input type="date" className="h-10 rounded-lg border border-stone-300 bg-white px-3 dark:border-stone-700 dark:bg-stone-900" value={date} onChange={(e) => (setDate(e.target.value), setTime(''))} />
      </label>
      <label className="grid gap-1 text-sm font-medium">
        Novo horário
        <select className="h-10 rounded-lg border border-stone-300 bg-white px-3 dark:border-stone-700 dark:bg-stone-900" value={time} onChange={(e) => setTime(e.target.value)}>
          <option value="">{times.isLoading ? 'Carregando...' : free.length === 0 ? 'Nenhum horário livre neste dia' : 'Selecione um horário'}</option>
          {free.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" disabled={time === '' || move.isPending}>
        {move.isPending ? 'Remarcando...' : 'Confirmar novo horário'}
      </Button>
    </form>
  )
}

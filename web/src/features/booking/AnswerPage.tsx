import { CalendarClock, CheckCircle2, Mail, MessageCircle, XCircle } from 'lucide-react'
import { useParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, errorMessage, type Schemas } from '@/lib/api/client'
import { longDate } from '@/lib/format'
import { whatsappFor } from '@/lib/whatsapp'
import { useAnswerPreview, useApplyAnswer } from './api/answer'

type Answer = Schemas['AnswerResult']

/** What an appointment's answer so far says, when the link asks for another. */
const earlier: Record<string, string> = {
  confirmed: 'Você já confirmou presença.',
  reschedule: 'Você já pediu para remarcar.',
}

/**
 * A reminder's one-tap answer (/resposta/{token}). Opening the link only
 * shows what it is about and what was already answered — mail and WhatsApp
 * link scanners open (and run) every link of a message — and the page's
 * button answers. Past the practice's cutoff, the page gives its contact.
 */
export default function AnswerPage() {
  const { token = '' } = useParams()
  const preview = useAnswerPreview(token)
  const apply = useApplyAnswer()
  const a = preview.data
  const answer = () =>
    apply.mutate(token, {
      onSuccess: (r) => {
        if (r.rescheduleUrl) window.location.assign(r.rescheduleUrl)
      },
    })

  if (preview.isLoading) return <PageSpinner />
  if (preview.error || !a) {
    const expired = preview.error instanceof ApiError && preview.error.code === 'link_expired'
    return (
      <Shell title={expired ? 'Link expirado' : 'Link inválido'}>
        <p>{expired ? 'Este agendamento já aconteceu: a resposta não vale mais.' : errorMessage(preview.error, 'Não foi possível abrir este link.')}</p>
      </Shell>
    )
  }
  const refused = apply.error instanceof ApiError ? apply.error : null
  const when = `${a.serviceName} com ${a.professionalName}, ${longDate(a.date)} às ${a.time}`
  if (refused?.code === 'cancel_cutoff' || (a.action === 'cancel' && a.status === 'confirmed' && a.pastCutoff)) {
    return (
      <Shell title="Não é possível cancelar por aqui" icon={<XCircle className="size-8 text-red-700" aria-hidden />}>
        <p>O prazo para cancelar pelo link terminou ({when}).</p>
        <Contact a={a} text={`Olá! Preciso cancelar meu horário de ${a.serviceName} em ${longDate(a.date)} às ${a.time}.`} />
      </Shell>
    )
  }
  if (a.moved || refused?.code === 'appointment_moved') {
    return (
      <Shell title="Este agendamento mudou de horário" icon={<CalendarClock className="size-8 text-amber-700" aria-hidden />}>
        <p>
          Depois desta mensagem, o agendamento passou para {when}. Esta resposta não vale para o novo horário: use a mensagem mais recente ou fale com {a.ownerName}.
        </p>
        <Contact a={a} text={`Olá! Sobre meu horário de ${a.serviceName} em ${longDate(a.date)} às ${a.time}.`} />
      </Shell>
    )
  }
  if (refused) {
    return (
      <Shell title="Não foi possível responder">
        <p>{refused.message}</p>
        <Contact a={a} text={`Olá! Sobre meu horário de ${a.serviceName} em ${longDate(a.date)} às ${a.time}.`} />
      </Shell>
    )
  }
  if (a.status === 'cancelled') {
    return (
      <Shell title="Agendamento cancelado" icon={<XCircle className="size-8 text-red-700" aria-hidden />}>
        <p>{when}. O horário foi liberado.</p>
      </Shell>
    )
  }
  const done = a.answer === (a.action === 'confirm' ? 'confirmed' : a.action)
  const button = (label: string, pending: string, variant?: 'destructive') => (
    <Button variant={variant} size="lg" className="mt-6 w-full" disabled={apply.isPending} onClick={answer}>
      {apply.isPending ? pending : label}
    </Button>
  )
  if (a.action === 'cancel') {
    return (
      <Shell title="Cancelar este agendamento?" icon={<XCircle className="size-8 text-red-700" aria-hidden />}>
        <p>{when}, com {a.ownerName}. O horário fica livre para outras pessoas.</p>
        {button('Cancelar agendamento', 'Cancelando...', 'destructive')}
      </Shell>
    )
  }
  if (a.action === 'reschedule' && done) {
    return (
      <Shell title="Pedido de remarcação registrado" icon={<CalendarClock className="size-8 text-amber-700" aria-hidden />}>
        <p>
          {a.ownerName} já sabe que você precisa remarcar {when}.
        </p>
        {apply.data?.rescheduleUrl ? (
          <a className="mt-4 inline-block font-medium text-brand-700 underline dark:text-brand-200" href={apply.data.rescheduleUrl}>
            Escolher outro horário
          </a>
        ) : a.pastCutoff ? (
          <>
            <p className="mt-2">O prazo para remarcar pelo link terminou.</p>
            <Contact a={a} text={`Olá! Preciso remarcar meu horário de ${a.serviceName} em ${longDate(a.date)} às ${a.time}.`} />
          </>
        ) : (
          button('Escolher outro horário', 'Abrindo...')
        )}
      </Shell>
    )
  }
  if (a.action === 'reschedule') {
    return (
      <Shell title="Precisa remarcar?" icon={<CalendarClock className="size-8 text-amber-700" aria-hidden />}>
        <p>
          {when}, com {a.ownerName}.
        </p>
        {earlier[a.answer] ? <p className="mt-2">{earlier[a.answer]}</p> : null}
        {a.pastCutoff ? <p className="mt-2">O prazo para remarcar pelo link terminou: {a.ownerName} vai saber que você precisa remarcar.</p> : null}
        {button('Preciso remarcar', 'Enviando...')}
      </Shell>
    )
  }
  if (done) {
    return (
      <Shell title="Presença confirmada" icon={<CheckCircle2 className="size-8 text-emerald-700" aria-hidden />}>
        <p>
          {a.already ? 'Você já tinha confirmado' : 'Obrigado! Sua presença está confirmada'}: {when}, com {a.ownerName}.
        </p>
      </Shell>
    )
  }
  return (
    <Shell title="Confirmar presença?" icon={<CheckCircle2 className="size-8 text-emerald-700" aria-hidden />}>
      <p>
        {when}, com {a.ownerName}.
      </p>
      {earlier[a.answer] ? <p className="mt-2">{earlier[a.answer]}</p> : null}
      {button('Confirmar presença', 'Confirmando...')}
    </Shell>
  )
}

function Shell({ title, icon, children }: { title: string; icon?: React.ReactNode; children: React.ReactNode }) {
  return (
    <main className="mx-auto max-w-lg px-4 py-12 text-center">
      {icon ? <div className="mb-3 flex justify-center">{icon}</div> : null}
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <div role="status" className="mt-3 text-stone-700 dark:text-stone-300">
        {children}
      </div>
    </main>
  )
}

/** How to reach the practice: its WhatsApp and e-mail, as its public page shows them. */
function Contact({ a, text }: { a: Answer; text: string }) {
  const wa = whatsappFor(a.ownerWhatsapp, text)
  return (
    <div className="mt-4">
      <p>Fale com {a.ownerName}:</p>
      <div className="mt-2 flex flex-wrap justify-center gap-4">
        {wa ? (
          <a className="inline-flex items-center gap-1 font-medium text-brand-700 underline dark:text-brand-200" href={wa} target="_blank" rel="noreferrer">
            <MessageCircle className="size-4" aria-hidden /> WhatsApp {a.ownerWhatsapp}
          </a>
        ) : null}
        {a.ownerContactEmail ? (
          <a className="inline-flex items-center gap-1 font-medium text-brand-700 underline dark:text-brand-200" href={`mailto:${a.ownerContactEmail}`}>
            <Mail className="size-4" aria-hidden /> {a.ownerContactEmail}
          </a>
        ) : null}
        {!wa && !a.ownerContactEmail ? <span>pelos contatos que você já tem.</span> : null}
      </div>
    </div>
  )
}

import { CalendarClock, CheckCircle2, Mail, MessageCircle, XCircle } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, errorMessage, type Schemas } from '@/lib/api/client'
import { longDate } from '@/lib/format'
import { whatsappFor } from '@/lib/whatsapp'
import { useAnswerPreview, useApplyAnswer } from './api/answer'

type Answer = Schemas['AnswerResult']

/**
 * A reminder's one-tap answer (/resposta/{token}): "Confirmar presença" and
 * "Preciso remarcar" answer as the page opens (a mail scanner that only
 * fetches the link answers nothing); "Cancelar" frees the time, so it asks
 * for one more tap. Past the practice's cutoff, the page gives its contact.
 */
export default function AnswerPage() {
  const { token = '' } = useParams()
  const preview = useAnswerPreview(token)
  const apply = useApplyAnswer()
  const sent = useRef(false)
  const a = preview.data
  const auto = a && a.action !== 'cancel' && a.status === 'confirmed'
  useEffect(() => {
    if (!auto || sent.current) return
    sent.current = true
    apply.mutate(token, {
      onSuccess: (r) => {
        if (r.rescheduleUrl) window.location.assign(r.rescheduleUrl)
      },
    })
  }, [auto, apply, token])

  if (preview.isLoading || (auto && apply.isPending)) return <PageSpinner />
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
  if (a.action === 'cancel') {
    return (
      <Shell title="Cancelar este agendamento?" icon={<XCircle className="size-8 text-red-700" aria-hidden />}>
        <p>{when}, com {a.ownerName}. O horário fica livre para outras pessoas.</p>
        <Button variant="destructive" size="lg" className="mt-6 w-full" disabled={apply.isPending} onClick={() => apply.mutate(token)}>
          {apply.isPending ? 'Cancelando...' : 'Cancelar agendamento'}
        </Button>
      </Shell>
    )
  }
  if (a.action === 'reschedule') {
    return (
      <Shell title="Pedido de remarcação registrado" icon={<CalendarClock className="size-8 text-amber-700" aria-hidden />}>
        <p>
          {a.ownerName} já sabe que você precisa remarcar {when}.
        </p>
        {apply.data?.rescheduleUrl ? (
          <a className="mt-4 inline-block font-medium text-brand-700 underline dark:text-brand-200" href={apply.data.rescheduleUrl}>
            Escolher outro horário
          </a>
        ) : (
          <>
            <p className="mt-2">O prazo para remarcar pelo link terminou.</p>
            <Contact a={a} text={`Olá! Preciso remarcar meu horário de ${a.serviceName} em ${longDate(a.date)} às ${a.time}.`} />
          </>
        )}
      </Shell>
    )
  }
  return (
    <Shell title="Presença confirmada" icon={<CheckCircle2 className="size-8 text-emerald-700" aria-hidden />}>
      <p>
        {apply.data?.already ? 'Você já tinha confirmado' : 'Obrigado! Sua presença está confirmada'}: {when}, com {a.ownerName}.
      </p>
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

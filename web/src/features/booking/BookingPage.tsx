import { lazy, Suspense, useMemo, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, type Schemas } from '@/lib/api/client'
import { usePublicProfile } from '@/lib/api/endpoints/get-public-profile'
import { brDate } from '@/lib/format'
import { showServerError, useSchemaForm } from '@/lib/form'
import { useCreateBooking } from './api/create-booking'
import { blankClient, clientSchema } from './booking-form'
import { Header } from './BookingSection'
import type { Done } from './Confirmation'

// The card after booking (and its Pix) loads when a booking is made, not on the first visit (the page budget).
const Confirmation = lazy(() => import('./Confirmation'))
import { DateStep } from './DateStep'
import { ConfirmStep, DetailsStep } from './DetailsStep'
import { PracticeHelp } from './PracticeHelp'
import { ProfessionalStep, ServiceStep } from './ServiceStep'
import { TimeStep } from './TimeStep'
import { useBookingSteps } from './use-booking'
import { WaitlistJoin } from './WaitlistJoin'

type PublicProfile = Schemas['PublicProfile']

/**
 * The public booking form, in the spec's two readings: at /agende/:username/form
 * the phone is required and the e-mail optional; at /booking?username=… the
 * e-mail is required and the phone optional. Service, professional, date and
 * time live in the URL (useBookingSteps), so a link reproduces the page.
 */
export default function BookingPage({ variant = 'form' }: { variant?: 'form' | 'booking' }) {
  const params = useParams()
  const [search] = useSearchParams()
  const username = (variant === 'form' ? params.username : search.get('username')) ?? ''
  const profile = usePublicProfile(username, { enabled: username !== '' })
  if (!username || (profile.error instanceof ApiError && profile.error.status === 404)) {
    return <Centered title="Perfil não encontrado" text="Este link de agendamento não é válido." />
  }
  if (profile.isLoading) return <PageSpinner />
  if (profile.error || !profile.data) return <Centered title="Erro ao carregar informações do profissional." text="Não foi possível carregar as informações do profissional." />
  return <BookingForm profile={profile.data} variant={variant} />
}

function Centered({ title, text }: { title: string; text: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">{text}</p>
    </main>
  )
}

/** The steps (useBookingSteps keeps their picks) and the client's fields, sent as one booking. */
function BookingForm({ profile, variant }: { profile: PublicProfile; variant: 'form' | 'booking' }) {
  const steps = useBookingSteps(profile)
  const { service, professional, date, time, times } = steps
  const schema = useMemo(() => clientSchema(variant), [variant])
  const form = useSchemaForm(schema, blankClient)
  const [conflict, setConflict] = useState<string | null>(null)
  const booking = useCreateBooking()
  const busy = booking.isPending
  const [done, setDone] = useState<Done | null>(null)

  if (done)
    return (
      <Suspense>
        <Confirmation profile={profile} done={done} onAgain={() => setDone(null)} />
      </Suspense>
    )

  const contact = variant === 'form' ? form.watch('phone') : form.watch('email')
  const typed = { name: form.watch('name'), email: form.watch('email'), phone: form.watch('phone') }
  const requiredFilled = steps.ready && date !== '' && time !== '' && form.watch('name').trim() !== '' && contact.trim() !== ''
  const missing = () => toast.error('Campos obrigatórios', { description: 'Por favor, preencha todos os campos obrigatórios.' })

  const onSubmit = form.handleSubmit((client) => {
    if (busy) return
    if (!requiredFilled || !service || !professional) {
      missing()
      return
    }
    setConflict(null)
    booking.mutate(
      { username: profile.username, body: { professionalId: professional.id, serviceId: service.id, date, time, ...client } },
      {
        onSuccess: (booked) => {
          toast.success(booked.deposit ? 'Horário reservado' : 'Agendamento confirmado!', {
            description: booked.deposit ? 'Pague o sinal via Pix para confirmar.' : variant === 'form' ? 'Seu agendamento foi realizado com sucesso.' : `${brDate(booked.date)} às ${booked.time}`,
          })
          setDone({ booking: booked, email: client.clientEmail ?? '' })
          form.reset()
          steps.restart()
        },
        onError: (err) => {
          // The free days and times are read again by the mutation after a 409.
          if (err instanceof ApiError && err.status === 409) {
            setConflict(err.message)
            steps.pick({ time: '' })
          } else if (err instanceof ApiError && err.status < 500 && err.status !== 429) {
            toast.error('Erro', { description: showServerError(form, err, err.message) })
          } else if (variant === 'form') {
            toast.error('Erro', { description: 'Não foi possível realizar o agendamento. Tente novamente.' })
          } else {
            toast.error('Erro ao agendar', { description: 'Ocorreu um erro ao criar seu agendamento. Tente novamente.' })
          }
        },
      },
    )
  }, missing)

  return (
    <main className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      <Header profile={profile} />
      {!profile.bookingOpen ? (
        <div role="alert" className="mt-6 rounded-2xl border border-amber-300 bg-amber-50 p-5 dark:border-amber-700 dark:bg-amber-900/30">
          <p className="font-semibold">Agendamento online indisponível</p>
          <p className="mt-1 text-sm">Este profissional não está recebendo agendamentos online no momento. Entre em contato diretamente para marcar seu horário.</p>
          <Link to={`/agende/${profile.username}`} className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline dark:text-brand-200">
            Ver perfil e contatos
          </Link>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="mt-6 grid gap-4" noValidate>
          <DetailsStep form={form} variant={variant} profile={profile} />
          <ServiceStep services={profile.services} steps={steps} />
          <ProfessionalStep steps={steps} onPick={() => setConflict(null)} />
          <DateStep steps={steps} />
          <TimeStep steps={steps} waitlist={<WaitlistJoin username={profile.username} steps={steps} typed={typed} lead="" />} />
          <ConfirmStep steps={steps} form={form} conflict={conflict} busy={busy} disabled={busy || !requiredFilled || (times.data?.times.length ?? 0) === 0} />
        </form>
      )}
      {profile.bookingOpen ? <WaitlistJoin username={profile.username} steps={steps} typed={typed} /> : null}
      <PracticeHelp whatsapp={profile.whatsapp} email={profile.contactEmail} />
    </main>
  )
}

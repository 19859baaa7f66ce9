import { useQuery } from '@tanstack/react-query'
import { CalendarCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { Schemas } from '@/lib/api/client'
import { longDate, priceText } from '@/lib/format'
import { bookingInviteUrl } from './api/get-booking-invite'
import { cancellationQueryOptions } from './api/get-cancellation'
import { Header } from './BookingSection'
import { MyBookingLink } from './MyBookingLink'
import { PracticeHelp } from './PracticeHelp'
import { PushButton } from './PushButton'
import PixCard from './PixCard'

type PublicProfile = Schemas['PublicProfile']
export type Done = { booking: Schemas['Booking']; email: string }

/** The booked appointment: where, the calendar links, the client's private link to it, and a way to book again. */
export default function Confirmation({ profile, done, onAgain }: { profile: PublicProfile; done: Done; onAgain: () => void }) {
  const b = done.booking
  // With a deposit the card follows the booking by itself (the private page's read, asked again while the Pix is due): once paid it
  // says so, without a reload.
  const live = useQuery({ ...cancellationQueryOptions(b.token), enabled: b.deposit != null }).data
  const deposit = live?.deposit ?? b.deposit
  const paid = live?.status === 'confirmed' && deposit?.state === 'paid'
  // Their council registration, as the page named them (issue 43 §3).
  const headline = profile.professionals.find((p) => p.id === b.professionalId)?.headline
  return (
    <main className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      <Header profile={profile} />
      <section className="mt-6 rounded-2xl border border-green-300 bg-green-50 p-6 dark:border-green-800 dark:bg-green-900/30" aria-labelledby="ok-title">
        <CalendarCheck className="size-8 text-green-700 dark:text-green-300" aria-hidden />
        <h2 id="ok-title" className="mt-2 text-xl font-semibold">
          {!deposit ? 'Agendamento confirmado!' : paid ? 'Sinal recebido — agendamento confirmado' : live?.status === 'cancelled' ? 'Horário liberado' : 'Aguardando sinal'}
        </h2>
        {deposit?.state === 'pending' ? <PixCard token={b.token} deposit={deposit} email={done.email} /> : null}
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
          <dd>
            {b.professionalName}
            {headline ? <span className="block text-stone-600 dark:text-stone-400">{headline}</span> : null}
          </dd>
          <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
          <dd>{b.serviceName}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Data</dt>
          <dd>{longDate(b.date)}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Horário</dt>
          <dd>{b.time}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Valor</dt>
          <dd>{priceText(b.priceCents)}</dd>
          {/* Where: an online service's video-call link replaces the address. */}
          {b.place.online || b.place.address ? (
            <>
              <dt className="text-stone-600 dark:text-stone-400">{b.place.online ? 'Online' : 'Local'}</dt>
              <dd className="break-words">
                {b.place.online ? (b.place.link ? <a href={b.place.link} target="_blank" rel="noopener noreferrer" className="break-all font-medium text-brand-700 underline dark:text-brand-200">{b.place.link}</a> : 'O link será enviado pelo profissional.') : (
                  <>
                    {b.place.address} ·{' '}
                    <a href={b.place.mapsUrl} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 underline dark:text-brand-200">Ver no mapa</a>
                  </>
                )}
              </dd>
            </>
          ) : null}
        </dl>
        <div className="mt-4 flex flex-wrap gap-x-4 gap-y-2 text-sm font-medium">
          <a href={b.googleCalendarUrl} target="_blank" rel="noopener noreferrer" className="text-brand-700 hover:underline dark:text-brand-200">
            Adicionar ao Google Agenda
          </a>
          <a href={bookingInviteUrl(b.token)} download="agendamento.ics" className="text-brand-700 hover:underline dark:text-brand-200">
            Baixar convite (.ics)
          </a>
        </div>
        <MyBookingLink token={b.token} owner={profile.name} />
        {live?.status !== 'cancelled' ? <PushButton token={b.token} /> : null}
        {done.email && (!deposit || paid) ? (
          <p className="mt-4 text-sm">{`Você receberá uma confirmação por e-mail em ${done.email}, com o convite para a sua agenda e um link para cancelar, se precisar.`}</p>
        ) : null}
        <Button className="mt-5" variant="outline" onClick={onAgain}>
          Fazer outro agendamento
        </Button>
      </section>
      <PracticeHelp whatsapp={profile.whatsapp} email={profile.contactEmail} />
    </main>
  )
}

import { AlertTriangle, CalendarCheck } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, type Schemas } from '@/lib/api/client'
import { usePublicProfile } from '@/lib/api/endpoints/get-public-profile'
import { todayLocal } from '@/lib/dates'
import { brDate, formatBRL, initials, longDate } from '@/lib/format'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { cn } from '@/lib/utils'
import { useCreateBooking } from './api/create-booking'
import { bookingInviteUrl } from './api/get-booking-invite'
import { useBookableDays } from './api/get-bookable-days'
import { blankClient, clientSchema } from './booking-form'
import { useFreeTimes } from './api/get-free-times'
import { DatePicker } from './DatePicker'
import { MyBookingLink } from './MyBookingLink'
import { PracticeHelp } from './PracticeHelp'

type Booking = Schemas['Booking']
type PublicProfile = Schemas['PublicProfile']

/**
 * The public booking form, in the spec's two readings: at /agende/:username/form
 * the phone is required and the e-mail optional; at /booking?username=… the
 * e-mail is required and the phone optional. Service, professional and date
 * live in the URL, so a link reproduces the page.
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

function Header({ profile }: { profile: PublicProfile }) {
  return (
    <header className="flex items-center gap-4">
      {profile.photoUrl ? (
        <img src={profile.photoUrl} alt={`Foto de ${profile.name}`} width={64} height={64} className="size-16 rounded-full object-cover" />
      ) : (
        <div aria-hidden className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xl font-semibold text-brand-800 dark:bg-brand-900/50 dark:text-brand-100">
          {initials(profile.name)}
        </div>
      )}
      <div>
        <h1 className="text-xl font-bold tracking-tight">{profile.name}</h1>
        {profile.area ? <p className="text-sm text-brand-700 dark:text-brand-200">{profile.area}</p> : null}
        {profile.description ? <p className="mt-1 line-clamp-3 text-sm text-stone-600 dark:text-stone-400">{profile.description}</p> : null}
      </div>
    </header>
  )
}

function Section({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`sec-${n}`} className="rounded-2xl border border-stone-200 bg-white p-4 sm:p-5 dark:border-stone-800 dark:bg-stone-900">
      <h2 id={`sec-${n}`} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** "Qualquer profissional": the server books whoever is free (the least busy that day). */
const anyone = { id: 'any', name: 'Qualquer profissional', specialization: '', photoUrl: '' }

function BookingForm({ profile, variant }: { profile: PublicProfile; variant: 'form' | 'booking' }) {
  const [search, setSearch] = useSearchParams()
  const serviceId = search.get('service') ?? ''
  const date = search.get('date') ?? ''
  // The owner's today and last bookable date (their zone, their booking window).
  const today = profile.firstBookableDate || todayLocal()
  const lastDate = profile.lastBookableDate
  const service = profile.services.find((s) => s.id === serviceId)
  const professionals = useMemo(
    () => (service && service.professionalIds.length > 0 ? profile.professionals.filter((p) => service.professionalIds.includes(p.id)) : profile.professionals),
    [profile.professionals, service],
  )
  const professionalId = search.get('professional') ?? (professionals.length === 1 ? professionals[0].id : '')
  // With several professionals the client may leave the choice to the practice:
  // the free times are theirs together, and the server picks one who is free.
  const professional = professionalId === anyone.id && professionals.length > 1 ? anyone : professionals.find((p) => p.id === professionalId)
  const [month, setMonth] = useState((date || today).slice(0, 7))
  const [time, setTime] = useState('')
  const schema = useMemo(() => clientSchema(variant), [variant])
  const form = useSchemaForm(schema, blankClient)
  const errors = form.formState.errors
  const [conflict, setConflict] = useState<string | null>(null)
  const booking = useCreateBooking()
  const busy = booking.isPending
  const [done, setDone] = useState<{ booking: Booking; email: string } | null>(null)

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(search)
    if (value) next.set(key, value)
    else next.delete(key)
    setSearch(next, { replace: true })
  }

  const ready = Boolean(service && professional)
  const days = useBookableDays(profile.username, { month, professional: professionalId, service: serviceId }, { enabled: ready && profile.bookingOpen })
  const times = useFreeTimes(profile.username, { date, professional: professionalId, service: serviceId }, { enabled: ready && date !== '' && profile.bookingOpen })
  useEffect(() => {
    if (times.isError) toast.error('Erro', { description: 'Erro ao carregar horários disponíveis.' })
  }, [times.isError])
  // A chosen time that is no longer offered is cleared, with a warning.
  useEffect(() => {
    if (time && times.data && !times.data.times.includes(time)) {
      setTime('')
      toast.warning('O horário escolhido não está mais disponível. Escolha outro.')
    }
  }, [times.data, time])

  if (done) return <Confirmation profile={profile} done={done} onAgain={() => setDone(null)} />

  const isEnabled = (d: string) => {
    if (d < today || (lastDate && d > lastDate)) return false
    if (ready && days.data) return days.data.days.includes(d)
    return new Date(`${d}T12:00:00`).getDay() !== 0 // Sundays closed by default
  }

  const contact = variant === 'form' ? form.watch('phone') : form.watch('email')
  const requiredFilled = ready && date !== '' && time !== '' && form.watch('name').trim() !== '' && contact.trim() !== ''
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
          toast.success('Agendamento confirmado!', {
            description: variant === 'form' ? 'Seu agendamento foi realizado com sucesso.' : `${brDate(booked.date)} às ${booked.time}`,
          })
          setDone({ booking: booked, email: client.clientEmail ?? '' })
          form.reset()
          setTime('')
          setSearch(new URLSearchParams(variant === 'booking' ? { username: profile.username } : {}), { replace: true })
        },
        onError: (err) => {
          // The free days and times are read again by the mutation after a 409.
          if (err instanceof ApiError && err.status === 409) {
            setConflict(err.message)
            setTime('')
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
          <Section n={1} title="Seus dados">
            <div className="grid gap-3">
              <Field id="client-name" label="Nome completo *" error={errors.name?.message}>
                <Input id="client-name" autoComplete="name" {...form.register('name')} />
              </Field>
              <div className="grid gap-3 sm:grid-cols-2">
                <Field id="client-email" label={variant === 'booking' ? 'E-mail *' : 'E-mail'} error={errors.email?.message}>
                  <Input id="client-email" type="email" autoComplete="email" {...form.register('email')} />
                </Field>
                <Field id="client-phone" label={variant === 'form' ? 'Telefone *' : 'Telefone'} error={errors.phone?.message}>
                  <Input id="client-phone" type="tel" autoComplete="tel" placeholder="(11) 99999-9999" {...form.register('phone')} />
                </Field>
              </div>
              <Field
                id="client-notes"
                label="Observações"
                hint={healthArea(profile.area) ? 'Opcional. Suas observações ficam só com quem vai atender você e nunca são compartilhadas.' : undefined}
                error={errors.notes?.message}
              >
                <Textarea id="client-notes" {...form.register('notes')} />
              </Field>
              <p className="text-xs text-stone-600 dark:text-stone-400">
                {profile.name} recebe seu nome, telefone e e-mail para confirmar, lembrar e, se preciso, remarcar este agendamento.{' '}
                <a href="/policy" className="font-medium text-brand-700 underline dark:text-brand-200">
                  Política de Privacidade
                </a>
              </p>
            </div>
          </Section>

          <Section n={2} title="Escolha o serviço">
            {profile.services.length === 0 ? (
              <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum serviço disponível</p>
            ) : (
              <div className="grid gap-2" role="radiogroup" aria-label="Serviço">
                {profile.services.map((s) => (
                  <label key={s.id} className={cn('flex cursor-pointer items-start justify-between gap-3 rounded-xl border p-3', s.id === serviceId ? 'border-brand-600 bg-brand-50 dark:bg-brand-900/30' : 'border-stone-200 dark:border-stone-800')}>
                    <span className="flex items-start gap-3">
                      <input
                        type="radio"
                        name="service"
                        className="mt-1 accent-brand-700"
                        checked={s.id === serviceId}
                        onChange={() => {
                          const next = new URLSearchParams(search)
                          next.set('service', s.id)
                          next.delete('date')
                          setSearch(next, { replace: true })
                          setTime('')
                        }}
                      />
                      <span>
                        <span className="block font-medium">{s.name}</span>
                        <span className="block text-sm text-stone-600 dark:text-stone-400">{s.duration} minutos</span>
                        {s.description ? <span className="block text-sm text-stone-500 dark:text-stone-400">{s.description}</span> : null}
                      </span>
                    </span>
                    <span className="font-semibold text-brand-700 dark:text-brand-200">{formatBRL(s.priceCents)}</span>
                  </label>
                ))}
              </div>
            )}
          </Section>

          {professionals.length > 0 ? (
            <Section n={3} title="Escolha o profissional">
              <label htmlFor="professional" className="sr-only">
                Profissional
              </label>
              <select
                id="professional"
                value={professionalId}
                onChange={(e) => {
                  setParam('professional', e.target.value)
                  setTime('')
                  setConflict(null)
                }}
                className="h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
              >
                <option value="">Selecione um profissional</option>
                {professionals.length > 1 ? <option value={anyone.id}>{anyone.name}</option> : null}
                {professionals.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} — {p.specialization}
                  </option>
                ))}
              </select>
            </Section>
          ) : null}

          <Section n={4} title="Escolha a data">
            <DatePicker
              month={month}
              onMonth={setMonth}
              value={date}
              minMonth={today.slice(0, 7)}
              maxMonth={lastDate ? lastDate.slice(0, 7) : undefined}
              isEnabled={isEnabled}
              onChange={(d) => {
                setParam('date', d)
                setTime('')
              }}
            />
          </Section>

          {ready && date ? (
            <Section n={5} title="Escolha o horário">
              {times.isLoading ? (
                <p className="text-sm text-stone-600">Carregando horários...</p>
              ) : (times.data?.times.length ?? 0) === 0 ? (
                <div className="text-sm">
                  <p className="font-medium">Nenhum horário disponível para este profissional</p>
                  <p className="mt-1 text-stone-600 dark:text-stone-400">
                    Não há um intervalo livre de {service?.duration} minutos nesta data. Que tal escolher outra data?
                  </p>
                </div>
              ) : (
                <>
                  <label htmlFor="time" className="sr-only">
                    Horário
                  </label>
                  <select id="time" value={time} onChange={(e) => setTime(e.target.value)} className="h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900">
                    <option value="">Selecione um horário</option>
                    {times.data!.times.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                </>
              )}
            </Section>
          ) : null}

          {conflict ? (
            <div role="alert" className="flex gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-900/30 dark:text-red-100">
              <AlertTriangle className="size-5 shrink-0" aria-hidden />
              <div>
                <p className="font-semibold">Horário não disponível</p>
                <p>{conflict}</p>
              </div>
            </div>
          ) : null}

          {service && professional && date && time ? (
            <section aria-label="Resumo" className="rounded-2xl border border-brand-200 bg-brand-50 p-4 text-sm dark:border-brand-800 dark:bg-brand-900/30">
              <h2 className="mb-2 font-semibold">Resumo</h2>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
                <dd>{professional.name}</dd>
                <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
                <dd>{service.name}</dd>
                <dt className="text-stone-600 dark:text-stone-400">Data</dt>
                <dd>{brDate(date)}</dd>
                <dt className="text-stone-600 dark:text-stone-400">Horário</dt>
                <dd>{time}</dd>
                <dt className="text-stone-600 dark:text-stone-400">Duração</dt>
                <dd>{service.duration} minutos</dd>
                <dt className="text-stone-600 dark:text-stone-400">Valor</dt>
                <dd>{formatBRL(service.priceCents)}</dd>
              </dl>
            </section>
          ) : null}

          <FormError message={serverError(form)} />
          <Button type="submit" size="lg" disabled={busy || !requiredFilled || (times.data?.times.length ?? 0) === 0}>
            {busy ? 'Agendando...' : 'Confirmar agendamento'}
          </Button>
        </form>
      )}
      <PracticeHelp whatsapp={profile.whatsapp} email={profile.contactEmail} />
    </main>
  )
}


function Confirmation({ profile, done, onAgain }: { profile: PublicProfile; done: { booking: Booking; email: string }; onAgain: () => void }) {
  const b = done.booking
  return (
    <main className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      <Header profile={profile} />
      <section className="mt-6 rounded-2xl border border-green-300 bg-green-50 p-6 dark:border-green-800 dark:bg-green-900/30" aria-labelledby="ok-title">
        <CalendarCheck className="size-8 text-green-700 dark:text-green-300" aria-hidden />
        <h2 id="ok-title" className="mt-2 text-xl font-semibold">
          Agendamento confirmado!
        </h2>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-stone-600 dark:text-stone-400">Profissional</dt>
          <dd>{b.professionalName}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Serviço</dt>
          <dd>{b.serviceName}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Data</dt>
          <dd>{longDate(b.date)}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Horário</dt>
          <dd>{b.time}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Valor</dt>
          <dd>{formatBRL(b.priceCents)}</dd>
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
        {done.email ? (
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

/**
 * Health practices (psicologia, nutrição, fisioterapia and the like) collect
 * health data in the notes (LGPD art. 11): the form says they are optional
 * and never shared.
 */
export function healthArea(area: string): boolean {
  return /psic|nutri|fisio|terap|fono|odont|dent|m[eé]dic|sa[uú]de|enferm|cl[ií]nic|pediat|psiq|acupunt|quiro|osteo/i.test(area)
}

import { AtSign, Briefcase, Clock, Mail, MapPin, MessageCircle, Phone, Video } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError } from '@/lib/api/client'
import { usePublicProfile } from '@/lib/api/endpoints/get-public-profile'
import { priceText } from '@/lib/format'
import { whatsappFor } from '@/lib/whatsapp'
import { ProfileHeader } from './ProfileHeader'

export function Problem({ title, text }: { title: string; text?: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      {text ? <p className="mt-2 text-stone-600 dark:text-stone-400">{text}</p> : null}
      <Link to="/" className="mt-6 text-brand-700 hover:underline dark:text-brand-200">
        Ir para a página inicial
      </Link>
    </main>
  )
}

export default function PublicProfilePage() {
  const { username = '' } = useParams()
  const { data, error, isLoading } = usePublicProfile(username, { enabled: username !== '' })
  if (!username) return <Problem title="Username não fornecido" />
  if (isLoading) return <PageSpinner />
  if (error instanceof ApiError && error.status === 404) return <Problem title="Perfil não encontrado" text="Este link de agendamento não é válido." />
  if (error instanceof ApiError) return <Problem title="Erro ao carregar perfil" text="Tente novamente em instantes." />
  if (error || !data) return <Problem title="Erro inesperado ao carregar dados" />

  // The owner's WhatsApp, by the same rule as every wa.me link (55 added); none when it is not a phone.
  const whatsapp = whatsappFor(data.whatsapp, `Olá! Vi sua página no Agendei e gostaria de falar sobre um horário.`)
  const contacts = [
    data.phone ? { href: `tel:${data.phone.replace(/[^\d+]/g, '')}`, label: 'Telefone', icon: Phone } : null,
    whatsapp ? { href: whatsapp, label: 'WhatsApp', icon: MessageCircle } : null,
    // Only the contact e-mail the owner chose to show; the API never sends the account's.
    data.contactEmail ? { href: `mailto:${data.contactEmail}`, label: 'E-mail', icon: Mail } : null,
    data.instagram ? { href: data.instagram, label: 'Instagram', icon: AtSign } : null,
    data.linkedin ? { href: data.linkedin, label: 'LinkedIn', icon: Briefcase } : null,
  ].filter((c) => c !== null)

  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <ProfileHeader profile={data} />
      {contacts.length > 0 ? (
        <div className="mt-5 flex flex-wrap justify-center gap-2">
          {contacts.map(({ href, label, icon: Icon }) => (
            <a
              key={label}
              href={href}
              target={href.startsWith('http') ? '_blank' : undefined}
              rel="noreferrer"
              className="inline-flex items-center gap-2 rounded-full border border-stone-300 px-4 py-2 text-sm hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800"
            >
              <Icon className="size-4" aria-hidden /> {label}
            </a>
          ))}
        </div>
      ) : null}
      {data.address ? (
        <p className="mt-5 flex items-start justify-center gap-1 text-center text-sm text-stone-600 dark:text-stone-400">
          <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            {data.address} ·{' '}
            <a href={data.mapsUrl} target="_blank" rel="noreferrer" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
              Ver no mapa
            </a>
          </span>
        </p>
      ) : null}
      <section aria-labelledby="services-title" className="mt-10">
        <h2 id="services-title" className="text-lg font-semibold">
          Serviços
        </h2>
        {data.services.length === 0 ? (
          <p className="mt-4 rounded-2xl border border-stone-200 p-6 text-center text-stone-600 dark:border-stone-800 dark:text-stone-400">Nenhum serviço disponível</p>
        ) : (
          <ul className="mt-4 grid gap-3">
            {data.services.map((s) => (
              <li key={s.id}>
                <Link
                  to={`/agende/${encodeURIComponent(data.username)}/form?service=${encodeURIComponent(s.id)}`}
                  className="block rounded-2xl border border-stone-200 bg-white p-4 transition hover:border-brand-500 hover:shadow-sm dark:border-stone-800 dark:bg-stone-900"
                >
                  <div className="flex items-start justify-between gap-4">
                    <div>
                      <p className="font-semibold">{s.name}</p>
                      {s.description ? <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{s.description}</p> : null}
                      {s.online ? (
                        <p className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-brand-700 dark:text-brand-200">
                          <Video className="size-4" aria-hidden /> Online, por videochamada
                        </p>
                      ) : null}
                      <p className="mt-2 inline-flex items-center gap-1 text-sm text-stone-600 dark:text-stone-400">
                        <Clock className="size-4" aria-hidden /> {s.duration} minutos
                      </p>
                    </div>
                    <p className={s.priceCents == null ? 'max-w-32 text-right text-sm text-stone-600 dark:text-stone-400' : 'shrink-0 font-semibold text-brand-700 dark:text-brand-200'}>{priceText(s.priceCents)}</p>
                  </div>
                  <span className="mt-3 inline-block text-sm font-medium text-brand-700 dark:text-brand-200">Agendar →</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      {data.professionals.length > 0 ? (
        <section aria-labelledby="team-title" className="mt-10">
          <h2 id="team-title" className="text-lg font-semibold">
            {data.professionals.length > 1 ? 'Profissionais' : 'Profissional'}
          </h2>
          {/* Full name and council registration, as the councils' codes ask of any publicity (CFP, art. 20). */}
          <ul className="mt-4 grid gap-3">
            {data.professionals.map((p) => (
              <li key={p.id} className="rounded-2xl border border-stone-200 p-4 dark:border-stone-800">
                <p className="font-semibold">{p.name}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">{p.headline}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="mt-12 text-center text-xs text-stone-500 dark:text-stone-400">
        Agendamento online por{' '}
        <Link to="/" className="hover:underline">
          Agendei
        </Link>
      </p>
    </main>
  )
}

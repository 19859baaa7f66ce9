import { Eye } from 'lucide-react'
import { useParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError } from '@/lib/api/client'
import { usePublicProfile } from '@/lib/api/endpoints/get-public-profile'
import { priceText } from '@/lib/format'
import { ProfileHeader } from './ProfileHeader'
import { Problem } from './PublicProfilePage'

/** The owner's preview of the public page: profile, services, team and a button that does nothing. */
export default function PreviewPage() {
  const { slug = '' } = useParams()
  const { data, error, isLoading } = usePublicProfile(slug, { enabled: slug !== '' })
  if (isLoading) return <PageSpinner />
  if (error instanceof ApiError && error.status === 404) return <Problem title="Perfil não encontrado" text="Este link de agendamento não é válido." />
  if (error || !data) return <Problem title="Erro ao carregar perfil" />
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <p className="mb-6 flex items-center justify-center gap-2 rounded-xl bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
        <Eye className="size-4" aria-hidden /> Pré-visualização da sua página pública
      </p>
      <ProfileHeader profile={data} />
      <section className="mt-8">
        <h2 className="text-lg font-semibold">Serviços</h2>
        <ul className="mt-3 grid gap-2">
          {data.services.map((s) => (
            <li key={s.id} className="flex justify-between rounded-xl border border-stone-200 p-3 text-sm dark:border-stone-800">
              <span>
                {s.name} · {s.duration} min
              </span>
              <span className="font-medium">{priceText(s.priceCents)}</span>
            </li>
          ))}
        </ul>
      </section>
      <section className="mt-8">
        <h2 className="text-lg font-semibold">Equipe</h2>
        <ul className="mt-3 grid gap-2">
          {data.professionals.map((p) => (
            <li key={p.id} className="rounded-xl border border-stone-200 p-3 text-sm dark:border-stone-800">
              <span className="font-medium">{p.name}</span> <span className="text-stone-500 dark:text-stone-400">· {p.headline}</span>
            </li>
          ))}
        </ul>
      </section>
      <Button className="mt-8 w-full" size="lg" type="button">
        Agendar Consulta
      </Button>
    </main>
  )
}

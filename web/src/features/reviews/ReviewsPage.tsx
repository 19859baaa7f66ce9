import { Star } from 'lucide-react'
import { PublicPage } from '@/components/public-page'
import { figures, testimonials } from '@/lib/marketing'

export default function ReviewsPage() {
  return (
    <PublicPage>
      <div className="mx-auto max-w-5xl px-4 py-12">
        <h1 className="text-3xl font-bold tracking-tight">Avaliações</h1>
        <p className="mt-2 flex items-center gap-1 text-stone-600 dark:text-stone-400">
          <Star className="size-4 fill-amber-400 text-amber-400" aria-hidden /> 4,9 de 5 em mais de 120 avaliações · 98% de satisfação
        </p>
        <dl className="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-4">
          {figures.map((f) => (
            <div key={f.label} className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
              <dt className="sr-only">{f.label}</dt>
              <dd className="text-2xl font-bold text-brand-700 dark:text-brand-200">{f.value}</dd>
              <dd className="text-sm text-stone-600 dark:text-stone-400">{f.label}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-10 grid gap-6 md:grid-cols-3">
          {testimonials.map((t) => (
            <figure key={t.name} className="rounded-2xl border border-stone-200 bg-white p-6 dark:border-stone-800 dark:bg-stone-900">
              <div className="flex gap-0.5" role="img" aria-label="5 estrelas">
                {Array.from({ length: 5 }, (_, i) => (
                  <Star key={i} className="size-4 fill-amber-400 text-amber-400" aria-hidden />
                ))}
              </div>
              <blockquote className="mt-3 text-sm leading-relaxed">“{t.text}”</blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold">{t.name}</span>
                <span className="text-stone-600 dark:text-stone-400"> · {t.profession}</span>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </PublicPage>
  )
}

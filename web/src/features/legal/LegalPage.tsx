import type { ReactNode } from 'react'
import { PublicPage } from '@/components/public-page'

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <PublicPage>
      <article className="mx-auto max-w-3xl px-4 py-12 [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_p]:mt-3 [&_p]:leading-relaxed [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="text-sm text-stone-500 dark:text-stone-400">Última atualização: {updated}</p>
        {children}
      </article>
    </PublicPage>
  )
}

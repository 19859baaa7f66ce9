import type { ReactNode } from 'react'
import type { Schemas } from '@/lib/api/client'
import { Avatar } from '@/components/ui/avatar'

/** The practice at the top of the form and of its confirmation. */
export function Header({ profile }: { profile: Schemas['PublicProfile'] }) {
  return (
    <header className="flex items-center gap-4">
      <Avatar name={profile.name} photoUrl={profile.photoUrl} size="md" />
      <div>
        <h1 className="text-xl font-bold tracking-tight">{profile.name}</h1>
        {profile.area ? <p className="text-sm text-brand-700 dark:text-brand-200">{profile.area}</p> : null}
        {profile.description ? <p className="mt-1 line-clamp-3 text-sm text-stone-600 dark:text-stone-400">{profile.description}</p> : null}
      </div>
    </header>
  )
}

/** One numbered step of the form, named by its heading. */
export function Section({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`sec-${n}`} className="rounded-2xl border border-stone-200 bg-white p-4 sm:p-5 dark:border-stone-800 dark:bg-stone-900">
      <h2 id={`sec-${n}`} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}


import { Construction } from 'lucide-react'
import { Link } from 'react-router'

/** A screen whose content a later capability builds; it already has its route and title. */
export function PlaceholderPage({ title, back = '/dashboard' }: { title: string; back?: string }) {
  return (
    <div className="mx-auto max-w-3xl">
      <Link to={back} className="text-sm text-brand-700 hover:underline dark:text-brand-200">
        Voltar
      </Link>
      <h1 className="mt-4 text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 flex items-center gap-2 text-stone-600 dark:text-stone-400">
        <Construction className="size-5" aria-hidden /> Esta tela está sendo preparada.
      </p>
    </div>
  )
}


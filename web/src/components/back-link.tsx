import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'

export function BackLink({ to = '/dashboard', children = 'Voltar ao painel' }: { to?: string; children?: React.ReactNode }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-brand-200">
      <ArrowLeft className="size-4" aria-hidden /> {children}
    </Link>
  )
}

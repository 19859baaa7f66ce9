import { CalendarCheck } from 'lucide-react'
import { Link } from 'react-router'

export function Brand({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 text-lg font-bold text-brand-700 dark:text-brand-200">
      <CalendarCheck className="size-6" aria-hidden />
      Agendei
    </Link>
  )
}

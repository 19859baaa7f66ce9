import { Loader2 } from 'lucide-react'
import { cn } from '@/lib/utils'

/** A spinner; `className` replaces its size (size-6 by default). */
export function Spinner({ className = 'size-6', label = 'Carregando...' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2 aria-hidden className={cn('animate-spin text-brand-700', className)} />
      <span className="sr-only">{label}</span>
    </span>
  )
}

export function PageSpinner() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner className="size-8" />
    </div>
  )
}

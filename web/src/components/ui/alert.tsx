import type { HTMLAttributes } from 'react'
import { cn } from '@/lib/utils'

export function Alert({ className, variant = 'info', ...props }: HTMLAttributes<HTMLDivElement> & { variant?: 'info' | 'warning' | 'error' }) {
  const tone = {
    info: 'border-brand-200 bg-brand-50 text-brand-900 dark:border-brand-800 dark:bg-brand-900/30 dark:text-brand-100',
    warning: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-900/30 dark:text-amber-100',
    error: 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-900/30 dark:text-red-100',
  }[variant]
  return <div role={variant === 'error' ? 'alert' : 'status'} className={cn('rounded-xl border p-4 text-sm', tone, className)} {...props} />
}

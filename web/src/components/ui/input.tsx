import { forwardRef, type InputHTMLAttributes } from 'react'
import { cn } from '@/lib/utils'

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(({ className, ...props }, ref) => (
  <input
    ref={ref}
    className={cn(
      'flex h-10 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-base placeholder:text-stone-400 disabled:opacity-50 sm:text-sm dark:border-stone-700 dark:bg-stone-900',
      className,
    )}
    {...props}
  />
))
Input.displayName = 'Input'

import { forwardRef, type TextareaHTMLAttributes } from 'react'
import { cn } from '@/lib/utils'

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(({ className, ...props }, ref) => (
  <textarea
    ref={ref}
    className={cn(
      'flex min-h-20 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-base placeholder:text-stone-400 sm:text-sm dark:border-stone-700 dark:bg-stone-900',
      className,
    )}
    {...props}
  />
))
Textarea.displayName = 'Textarea'

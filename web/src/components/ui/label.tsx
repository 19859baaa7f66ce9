import { forwardRef, type LabelHTMLAttributes } from 'react'
import { cn } from '@/lib/utils'

/** A form label: the native element (Radix's added only a guard against selecting text on double click, and ~1 kB to every public page). */
export const Label = forwardRef<HTMLLabelElement, LabelHTMLAttributes<HTMLLabelElement>>(({ className, ...props }, ref) => (
  <label ref={ref} className={cn('text-sm font-medium leading-none', className)} {...props} />
))
Label.displayName = 'Label'

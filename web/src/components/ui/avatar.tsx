import { initials } from '@/lib/format'
import { cn } from '@/lib/utils'

const sizes = {
  sm: { px: 40, box: 'size-10 text-sm' },
  md: { px: 64, box: 'size-16 text-xl' },
  lg: { px: 80, box: 'size-20 text-2xl' },
  xl: { px: 112, box: 'size-28 text-3xl' },
}

/**
 * A person's or practice's circle: the photo when there is one (its alt
 * "Foto de <nome>"), else the name's initials, which are decorative (the
 * name is always written beside them).
 */
export function Avatar({ name, photoUrl, size, className }: { name: string; photoUrl?: string | null; size: keyof typeof sizes; className?: string }) {
  const { px, box } = sizes[size]
  if (photoUrl) {
    return <img src={photoUrl} alt={`Foto de ${name}`} width={px} height={px} className={cn('shrink-0 rounded-full object-cover', box, className)} />
  }
  return (
    <span
      aria-hidden
      className={cn('flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 dark:bg-brand-900/50 dark:text-brand-100', box, className)}
    >
      {initials(name)}
    </span>
  )
}

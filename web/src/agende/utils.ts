import { clsx, type ClassValue } from 'clsx'

/**
 * `cn` of the public pages' light build: clsx alone, without
 * tailwind-merge (~8 kB gzipped of a client's first visit). The public
 * pages never pass two classes of one kind for a merge to settle:
 * src/test/setup.ts runs every `cn` of their tests through both and fails
 * a test whose classes tailwind-merge would change.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs)
}

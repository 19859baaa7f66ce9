import { useSyncExternalStore } from 'react'

/**
 * Whether the screen matches a CSS media query, following it as it changes (a phone turned sideways, a window
 * resized). For the few screens whose layout differs by more than CSS can say — the same fields in a bottom sheet
 * on a phone and inline on a desktop. Where the browser cannot tell (tests without matchMedia), `fallback`.
 */
export function useMediaQuery(query: string, fallback = false): boolean {
  return useSyncExternalStore(
    (changed) => {
      if (typeof window.matchMedia !== 'function') return () => {}
      const m = window.matchMedia(query)
      m.addEventListener('change', changed)
      return () => m.removeEventListener('change', changed)
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback),
    () => fallback,
  )
}

/** From the `sm` breakpoint up (640 px, Tailwind's): room for a toolbar's fields side by side. */
export const wideQuery = '(min-width: 640px)'

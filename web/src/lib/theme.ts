import { useCallback, useSyncExternalStore } from 'react'

const KEY = 'darkMode'
const listeners = new Set<() => void>()

function read(): boolean {
  try {
    return localStorage.getItem(KEY) === 'true'
  } catch {
    return false
  }
}

/** Puts the stored preference on the document root (called before the first render). */
export function applyStoredTheme() {
  document.documentElement.classList.toggle('dark', read())
}

export function setDarkMode(on: boolean) {
  try {
    localStorage.setItem(KEY, String(on))
  } catch {
    // Private mode without storage: the toggle still works for this page.
  }
  document.documentElement.classList.toggle('dark', on)
  listeners.forEach((l) => l())
}

export function useDarkMode(): [boolean, () => void] {
  const dark = useSyncExternalStore(
    (cb) => {
      listeners.add(cb)
      return () => listeners.delete(cb)
    },
    () => document.documentElement.classList.contains('dark'),
  )
  const toggle = useCallback(() => setDarkMode(!dark), [dark])
  return [dark, toggle]
}

import { useRef } from 'react'
import { useSearchParams } from 'react-router'

/**
 * A screen's state kept in the address bar (search params), so that a reload, back and a shared link show the same
 * screen. `set` writes the keys given — an empty or undefined value removes its key — over the latest address, also
 * when it is called again before the next render (a search's debounce after another change), as one history entry:
 * pushed, or replaced with `replace`.
 */
export function useAddressState(): [URLSearchParams, (values: Record<string, string | undefined>, replace?: boolean) => void] {
  const [params, setParams] = useSearchParams()
  const latest = useRef(params)
  latest.current = params
  const set = (values: Record<string, string | undefined>, replace = false) => {
    const next = new URLSearchParams(latest.current)
    for (const [key, value] of Object.entries(values)) {
      if (value) next.set(key, value)
      else next.delete(key)
    }
    latest.current = next
    setParams(next, { replace })
  }
  return [params, set]
}

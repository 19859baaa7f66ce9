/**
 * The router of the public booking pages' light build (agende.html): the few
 * react-router APIs those pages use, over the History API. vite.agende.config.ts
 * puts it in place of 'react-router' for that build only, so a client's first
 * visit does not download the owner app's router. Paths outside the public
 * pages are plain page loads (the full app answers them).
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react'
// The list itself, not app/public-routes (which imports the pages, whose
// 'react-router' is this file in the light build: a circle). Only `routes`:
// a named import leaves the list's `about` text out of the bundle.
import { routes } from '../../publicroutes/public-routes.json'

const listeners = new Set<() => void>()
const notify = () => listeners.forEach((l) => l())
if (typeof window !== 'undefined') window.addEventListener('popstate', notify)

function subscribe(l: () => void) {
  listeners.add(l)
  return () => {
    listeners.delete(l)
  }
}
const href = () => window.location.pathname + window.location.search

/** The public routes this build renders (their one list), most specific first. */
export const patterns: readonly string[] = routes.map((r) => r.path)

/** Matches a path against a pattern, returning its parameters. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/')
  const got = path.replace(/\/+$/, '').split('/')
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      if (!got[i]) return null
      try {
        params[want[i].slice(1)] = decodeURIComponent(got[i])
      } catch {
        return null
      }
    } else if (want[i] !== got[i]) return null
  }
  return params
}

/** The pattern and parameters of a path, or null when this build does not render it. */
export function route(path: string): { pattern: string; params: Record<string, string> } | null {
  for (const pattern of patterns) {
    const params = match(pattern, path)
    if (params) return { pattern, params }
  }
  return null
}

export function useLocation() {
  const current = useSyncExternalStore(subscribe, href)
  const [pathname, search = ''] = current.split('?')
  return { pathname, search: search ? `?${search}` : '', hash: '', state: historyState(), key: current }
}

/** The state a Link carried to this entry (react-router keeps it as `usr` in the entries it writes: read both). */
function historyState(): unknown {
  const s: unknown = typeof window === 'undefined' ? null : window.history.state
  return s !== null && typeof s === 'object' && 'usr' in s ? s.usr : (s ?? null)
}

export function useParams(): Record<string, string | undefined> {
  const { pathname } = useLocation()
  return route(pathname)?.params ?? {}
}

type NavigateOptions = { replace?: boolean; state?: unknown }

export function navigate(to: string, opts: NavigateOptions = {}) {
  const url = new URL(to, window.location.href)
  if (url.origin !== window.location.origin || !route(url.pathname)) {
    if (opts.replace) window.location.replace(url.href)
    else window.location.assign(url.href)
    return
  }
  window.history[opts.replace ? 'replaceState' : 'pushState'](opts.state ?? null, '', url.pathname + url.search)
  if (!opts.replace) window.scrollTo(0, 0)
  notify()
}

export function useNavigate() {
  return (to: string, opts?: NavigateOptions) => navigate(to, opts)
}

export function useSearchParams(): [URLSearchParams, (next: URLSearchParams | Record<string, string>, opts?: NavigateOptions) => void] {
  const { pathname, search } = useLocation()
  const set = (next: URLSearchParams | Record<string, string>, opts?: NavigateOptions) => {
    const q = new URLSearchParams(next).toString()
    navigate(pathname + (q ? `?${q}` : ''), opts)
  }
  return [new URLSearchParams(search), set]
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean; state?: unknown }

export function Link({ to, replace, state, onClick, ...rest }: LinkProps) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || rest.target) return
    e.preventDefault()
    navigate(to, { replace, state })
  }
  return <a href={to} onClick={click} {...rest} />
}

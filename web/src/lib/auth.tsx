import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { ApiError, NetworkError, request, setTokenSource, type Schemas, type Session } from './api/client'
import { useQueryClient } from '@tanstack/react-query'

type User = Schemas['User']
type Status = 'loading' | 'signed-in' | 'signed-out'

type AuthState = {
  status: Status
  user: User | null
  login: (email: string, password: string) => Promise<void>
  signup: (input: Schemas['SignupRequest']) => Promise<void>
  /** Accepts a professional's invitation (issue 43) and signs them in. */
  acceptInvite: (token: string, input: { password: string; recoveryKeyword: string }) => Promise<void>
  logout: (scope?: 'local' | 'global') => Promise<void>
  /** Forgets the session in this tab without calling the server. */
  clear: () => void
}

const AuthContext = createContext<AuthState | null>(null)

// The access token lives only in memory; the refresh token is an HttpOnly cookie.
let accessToken: string | null = null

/** For the few calls that cannot use request() (file upload and download, the event stream): the current token and a refresh. */
export const refreshedToken = {
  current: () => accessToken,
  refresh: async () => (await refreshSession())?.accessToken ?? null,
}

let inflight: Promise<Session | null> | null = null

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Trades the refresh cookie for a new session. Single-flight in this tab, and
 * serialised across tabs with the Web Locks API: the server revokes a whole
 * sign-in when one refresh token is presented twice (past a 30-second leeway
 * for an answer lost on its way), so two tabs must never race with the same cookie. Network and 5xx failures back off from 200 ms.
 */
function refreshSession(): Promise<Session | null> {
  if (inflight) return inflight
  const run = async (): Promise<Session | null> => {
    let delay = 200
    for (;;) {
      try {
        return await request('post', '/api/auth/refresh')
      } catch (e) {
        if (e instanceof ApiError && e.status < 500) return null
        if (delay > 30_000) return null
        await sleep(delay)
        delay *= 2
      }
    }
  }
  const locked =
    typeof navigator !== 'undefined' && navigator.locks
      ? new Promise<Session | null>((resolve, reject) => {
          // The lock is held until run() settles, because the callback returns its promise.
          navigator.locks.request('agendei-refresh', () => run().then(resolve, reject))
        })
      : run()
  const p = locked.finally(() => {
    inflight = null
  })
  inflight = p
  return p
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>('loading')
  const [user, setUser] = useState<User | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const hadSession = useRef(false)
  const queryClient = useQueryClient()

  const clear = useCallback(() => {
    accessToken = null
    if (timer.current) clearTimeout(timer.current)
    setUser(null)
    setStatus('signed-out')
    // Forget the owner's cached data when a session ends — but not when a
    // visitor simply has none, or public pages' queries in flight would be lost.
    if (hadSession.current) queryClient.clear()
    hadSession.current = false
  }, [queryClient])

  const apply = useCallback(
    (s: Session) => {
      accessToken = s.accessToken
      hadSession.current = true
      setUser(s.user)
      setStatus('signed-in')
      if (timer.current) clearTimeout(timer.current)
      // Refresh a minute before the access token expires.
      const wait = Math.max(5_000, (s.expiresIn - 60) * 1000)
      timer.current = setTimeout(async () => {
        const next = await refreshSession()
        if (next) apply(next)
        else clear()
      }, wait)
    },
    [clear],
  )

  useEffect(() => {
    setTokenSource({
      token: () => accessToken,
      refresh: async () => {
        const s = await refreshSession()
        if (s) apply(s)
        return s?.accessToken ?? null
      },
      onExpired: clear,
    })
    let cancelled = false
    refreshSession().then((s) => {
      if (cancelled) return
      if (s) apply(s)
      else clear()
    })
    return () => {
      cancelled = true
      if (timer.current) clearTimeout(timer.current)
    }
  }, [apply, clear])

  const value = useMemo<AuthState>(
    () => ({
      status,
      user,
      clear,
      login: async (email, password) => {
        apply(await request('post', '/api/auth/login', { body: { email, password } }))
      },
      signup: async (input) => {
        apply(await request('post', '/api/auth/signup', { body: input }))
      },
      acceptInvite: async (token, input) => {
        apply(await request('post', '/api/invites/{token}', { path: { token }, body: input }))
      },
      logout: async (scope = 'global') => {
        try {
          await request('post', '/api/auth/logout', { body: { scope }, auth: true })
        } catch (e) {
          if (!(e instanceof ApiError) && !(e instanceof NetworkError)) throw e
        } finally {
          clear()
        }
      },
    }),
    [status, user, apply, clear],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

/**
 * Whether the signed-in person is a professional of the practice signed in as
 * themself (issue 43): the app shows them their agenda and clients only, and
 * none of the owner's settings, money or team.
 */
export function useIsProfessional(): boolean {
  return useAuth().user?.role === 'professional'
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext)
  if (!ctx) throw new Error('useAuth outside AuthProvider')
  return ctx
}

import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { Toaster } from 'sonner'
import { vi } from 'vitest'
import { AuthProvider } from '@/lib/auth'

type Reply = { status: number; body?: unknown; delayMs?: number }
export type FetchCall = { url: string; method: string; body: unknown; headers: Record<string, string> }

/**
 * Stubs fetch at the network boundary: `handler` answers each request, and
 * every call is recorded for assertions.
 */
export function stubFetch(handler: (call: FetchCall) => Reply | undefined) {
  const calls: FetchCall[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: FetchCall = {
        url,
        method: init.method ?? 'GET',
        body: init.body ? JSON.parse(String(init.body)) : undefined,
        headers: (init.headers ?? {}) as Record<string, string>,
      }
      calls.push(call)
      const reply: Reply = handler(call) ?? (url === '/api/auth/refresh' ? { status: 401, body: { error: { code: 'unauthorized', message: 'x' } } } : { status: 404 })
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs))
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      })
    }),
  )
  return calls
}

export const session = {
  user: { id: '00000000-0000-4000-8000-000000000001', email: 'ana@example.com', role: 'owner' },
  accessToken: 'token-1',
  expiresAt: new Date(Date.now() + 900_000).toISOString(),
  expiresIn: 900,
}

/** Renders routes at a path inside the app's providers. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <AuthProvider>
        <RouterProvider router={router} />
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>,
  )
  return router
}

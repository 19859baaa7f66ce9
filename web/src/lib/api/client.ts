import type { components } from './schema'

export type Schemas = components['schemas']
export type Session = Schemas['Session']

/** An error answered by our server, in its one JSON shape. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly retryAfter?: number
  constructor(status: number, code: string, message: string, retryAfter?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.retryAfter = retryAfter
  }
}

/** The server could not be reached at all. */
export class NetworkError extends Error {
  constructor() {
    super('Erro de conexão. Tente novamente.')
    this.name = 'NetworkError'
  }
}

type TokenSource = {
  token: () => string | null
  /** Gets a fresh access token after a 401; null when the session is over. */
  refresh: () => Promise<string | null>
  /** Called when the session cannot be recovered. */
  onExpired: () => void
}

let tokens: TokenSource = { token: () => null, refresh: async () => null, onExpired: () => {} }

/** Connects the client to the session (done once by the auth provider). */
export function setTokenSource(source: TokenSource) {
  tokens = source
}

type Options = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  /** Send the access token and recover from a 401 by refreshing once. */
  auth?: boolean
  signal?: AbortSignal
}

async function send(path: string, opts: Options, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'X-Agendei-Client': 'web', Accept: 'application/json' }
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
  if (token) headers.Authorization = `Bearer ${token}`
  try {
    return await fetch(path, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    })
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e
    throw new NetworkError()
  }
}

async function parse<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T
  let data: unknown = null
  const text = await res.text()
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      data = null
    }
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; retryAfter?: number } } | null)?.error
    throw new ApiError(
      res.status,
      err?.code ?? 'unknown',
      err?.message ?? 'Algo deu errado. Tente novamente em alguns minutos.',
      err?.retryAfter,
    )
  }
  return data as T
}

/** Calls our API. Authenticated calls retry once after refreshing the session. */
export async function api<T>(path: string, opts: Options = {}): Promise<T> {
  const res = await send(path, opts, opts.auth ? tokens.token() : null)
  if (opts.auth && res.status === 401) {
    const fresh = await tokens.refresh()
    if (!fresh) {
      tokens.onExpired()
      return parse<T>(res)
    }
    const retry = await send(path, opts, fresh)
    if (retry.status === 401) tokens.onExpired()
    return parse<T>(retry)
  }
  return parse<T>(res)
}

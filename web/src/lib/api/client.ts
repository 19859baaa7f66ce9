import type { components, paths } from './schema'

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

/**
 * What to tell the user about a failed call: the server's own pt-BR message
 * (or the connection message), and the fallback for anything unexpected.
 */
export function errorMessage(e: unknown, fallback: string): string {
  return (e instanceof ApiError || e instanceof NetworkError) && e.message ? e.message : fallback
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
    // The contract's one error shape; a proxy's HTML page or an empty body has none of it.
    const err = (data as Partial<Schemas['Error']> | null)?.error as Partial<Schemas['Error']['error']> | undefined
    throw new ApiError(
      res.status,
      err?.code ?? 'unknown',
      err?.message ?? 'Algo deu errado. Tente novamente em alguns minutos.',
      err?.retryAfter,
    )
  }
  return data as T
}

/** Calls our API by URL, untyped; request() below is the typed way in. */
async function api<T>(path: string, opts: Options = {}): Promise<T> {
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

// ---- Typed calls, checked against the contract (schema.d.ts, from api/openapi.yaml) ----

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete'
type Defined<T> = Exclude<T, undefined>

/** The methods the contract declares for a path. */
export type MethodOf<P extends keyof paths> = { [M in Method]-?: undefined extends paths[P][M] ? never : M }[Method]
/** A path the contract declares with this method. */
export type PathWith<M extends Method> = { [P in keyof paths]: M extends MethodOf<P> ? P : never }[keyof paths]
type Op<M extends Method, P extends keyof paths> = Defined<paths[P][M]>

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : R extends { content?: never } ? void : unknown
/** The JSON of an operation's success answer (void for 204). */
export type ResponseOf<M extends Method, P extends PathWith<M>> =
  Op<M, P> extends { responses: infer R } ? { [S in keyof R]: S extends 200 | 201 | 202 | 204 ? JsonOf<R[S]> : never }[keyof R] : never
/** The JSON body an operation takes. */
export type BodyOf<M extends Method, P extends PathWith<M>> =
  Op<M, P> extends { requestBody?: infer B } ? (Defined<B> extends { content: { 'application/json': infer J } } ? J : never) : never

type Parts<O> = O extends { parameters: infer Params; requestBody?: infer B }
  ? (Params extends { path?: infer T } ? (Defined<T> extends never ? unknown : { path: Defined<T> }) : unknown) &
      (Params extends { query?: infer Q } ? (Defined<Q> extends never ? unknown : undefined extends Q ? { query?: Q } : { query: Q }) : unknown) &
      ([Defined<B>] extends [never]
        ? unknown
        : Defined<B> extends { content: { 'application/json': infer J } }
          ? undefined extends B
            ? { body?: J }
            : { body: J }
          : unknown)
  : unknown
/** What a call sends: path and query parameters and the body, as the contract types them. */
export type RequestInit_<M extends Method, P extends PathWith<M>> = Parts<Op<M, P>> & {
  /** Send the access token (and refresh once on a 401). */
  auth?: boolean
  signal?: AbortSignal
}
/** The init argument is optional when nothing in it is required. */
type Args<I> = Partial<I> extends I ? [init?: I] : [init: I]

/** The URL of a contract path with its parameters filled in. */
export function urlOf(path: string, params?: { path?: object; query?: object }): string {
  const values = (params?.path ?? {}) as Record<string, string | number>
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])))
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(params?.query ?? {})) if (v !== undefined && v !== null && v !== '') query.set(k, String(v))
  const qs = query.toString()
  return qs ? `${url}?${qs}` : url
}

/**
 * Calls an endpoint of the contract: a path or method it does not declare, a
 * wrong parameter or body field, or a misread answer fails type checking.
 * Errors are ApiError (with the server's pt-BR message) or NetworkError.
 */
export function request<M extends Method, P extends PathWith<M>>(
  method: M,
  path: P,
  ...[init]: Args<RequestInit_<M, P>>
): Promise<ResponseOf<M, P>> {
  const i = (init ?? {}) as { path?: object; query?: object; body?: unknown; auth?: boolean; signal?: AbortSignal }
  return api<ResponseOf<M, P>>(urlOf(path, i), {
    method: method.toUpperCase() as Options['method'],
    body: i.body,
    auth: i.auth,
    signal: i.signal,
  })
}

/**
 * The data fetching of the public booking pages' light build: the subset of
 * TanStack Query's API those pages use, with the same meaning and the same
 * defaults as the owner app (lib/query-defaults.ts: retry once, fresh for
 * 30 s, nothing refetched on window focus). vite.agende.config.ts puts it in
 * place of '@tanstack/react-query' there, and tsconfig.agende.json
 * type-checks the public pages against it, so an option it does not
 * implement fails `tsc` instead of being silently ignored.
 */
import { useEffect, useReducer } from 'react'
import { queryDefaults } from '@/lib/query-defaults'

export type QueryKey = readonly unknown[]
type Key = QueryKey
type Retry = boolean | number | ((failureCount: number, error: Error) => boolean)

/** The query options this stand-in implements; any other is a type error. */
export type UseQueryOptions<T> = {
  queryKey: QueryKey
  queryFn: () => Promise<T>
  enabled?: boolean
  retry?: Retry
  staleTime?: number
  /** Asks again every so many ms while on screen (false: not); a function decides from the data so far. */
  refetchInterval?: number | false | ((query: { state: { data: T | undefined } }) => number | false)
}

/** O, with every key UseQueryOptions does not have made impossible ("not assignable to never"). */
type Exactly<O> = O & { [K in Exclude<keyof O, keyof UseQueryOptions<unknown>>]: never }

// Every shared default is honoured here: a default added to
// lib/query-defaults.ts fails to compile until this stand-in handles it.
const honoured: Record<keyof typeof queryDefaults, string> = {
  retry: 'shouldRetry',
  staleTime: 'useQuery',
  refetchOnWindowFocus: 'never refetches on focus: the default is false',
}
void honoured
type DataOf<O> = O extends { queryFn: () => Promise<infer T> } ? T : never

type Entry = {
  key: Key
  data?: unknown
  error?: Error
  updatedAt: number
  fetching?: Promise<void>
  fetcher?: () => Promise<unknown>
  retry?: Retry
  listeners: Set<() => void>
}

const cache = new Map<string, Entry>()
const hash = (key: Key) => JSON.stringify(key)

function entry(key: Key): Entry {
  const h = hash(key)
  let e = cache.get(h)
  if (!e) {
    e = { key, updatedAt: 0, listeners: new Set() }
    cache.set(h, e)
  }
  return e
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

// As TanStack Query decides: the function or count sees the failures so far.
function shouldRetry(retry: Retry = queryDefaults.retry, failures: number, error: Error): boolean {
  if (typeof retry === 'function') return retry(failures, error)
  if (typeof retry === 'number') return failures < retry
  return retry
}

function fetchEntry(e: Entry): Promise<void> {
  if (e.fetching || !e.fetcher) return e.fetching ?? Promise.resolve()
  const fetcher = e.fetcher
  const run = async () => {
    for (let failures = 0; ; failures++) {
      try {
        e.data = await fetcher()
        e.error = undefined
        break
      } catch (thrown) {
        const err = thrown as Error // kept as thrown, as TanStack Query does
        if (!shouldRetry(e.retry, failures, err)) {
          e.error = err
          break
        }
        await wait(Math.min(1000 * 2 ** failures, 30000)) // TanStack Query's retryDelay
      }
    }
    e.updatedAt = Date.now()
  }
  e.fetching = run().finally(() => {
    e.fetching = undefined
    e.listeners.forEach((l) => l())
  })
  e.listeners.forEach((l) => l())
  return e.fetching
}

export type QueryResult<T> = {
  data: T | undefined
  error: Error | null
  isLoading: boolean
  isPending: boolean
  isFetching: boolean
  isError: boolean
  isSuccess: boolean
  refetch: () => Promise<void>
}

/** Options as useQuery takes them (typed and checked the same way). */
export function queryOptions<O extends UseQueryOptions<unknown>>(options: Exactly<O>): O {
  return options
}

export function useQuery<O extends UseQueryOptions<unknown>>(options: Exactly<O>): QueryResult<DataOf<O>> {
  const { queryKey, queryFn, enabled = true, retry, staleTime = queryDefaults.staleTime, refetchInterval } = options as UseQueryOptions<DataOf<O>>
  const e = entry(queryKey)
  e.fetcher = queryFn
  e.retry = retry
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  const h = hash(queryKey)
  useEffect(() => {
    const cur = entry(JSON.parse(h) as Key)
    cur.listeners.add(rerender)
    if (enabled && (cur.updatedAt === 0 || Date.now() - cur.updatedAt >= staleTime)) void fetchEntry(cur)
    return () => {
      cur.listeners.delete(rerender)
    }
  }, [h, enabled, staleTime])
  const every = typeof refetchInterval === 'function' ? refetchInterval({ state: { data: e.data as DataOf<O> | undefined } }) : refetchInterval
  const updatedAt = e.updatedAt
  useEffect(() => {
    if (!enabled || !every) return
    const t = setTimeout(() => void fetchEntry(entry(JSON.parse(h) as Key)), every)
    return () => clearTimeout(t)
  }, [h, enabled, every, updatedAt])
  const hasResult = e.updatedAt > 0
  const isFetching = e.fetching !== undefined
  return {
    data: e.data as DataOf<O> | undefined,
    error: e.error ?? null,
    isPending: !hasResult,
    isLoading: !hasResult && enabled,
    isFetching,
    isError: hasResult && e.error !== undefined,
    isSuccess: hasResult && e.error === undefined,
    refetch: () => fetchEntry(e),
  }
}

const startsWith = (key: Key, prefix: Key) => prefix.every((p, i) => hash([p]) === hash([key[i]]))

export const queryClient = {
  /** Marks matching queries stale and refetches those on screen. */
  invalidateQueries({ queryKey = [] }: { queryKey?: Key } = {}) {
    const jobs: Promise<void>[] = []
    for (const e of cache.values()) {
      if (!startsWith(e.key, queryKey)) continue
      e.updatedAt = e.updatedAt > 0 ? 1 : 0
      if (e.listeners.size > 0) jobs.push(fetchEntry(e))
    }
    return Promise.all(jobs).then(() => undefined)
  },
  /** Replaces a query's data (or updates it from the data it had). */
  setQueryData<T>(queryKey: Key, updater: T | ((old: T | undefined) => T)) {
    const e = entry(queryKey)
    e.data = typeof updater === 'function' ? (updater as (old: T | undefined) => T)(e.data as T | undefined) : updater
    e.error = undefined
    e.updatedAt = Date.now()
    e.listeners.forEach((l) => l())
  },
  getQueryData<T>(queryKey: Key): T | undefined {
    return cache.get(hash(queryKey))?.data as T | undefined
  },
  clear() {
    cache.clear()
  },
}

export function useQueryClient() {
  return queryClient
}

/** The mutation options this stand-in implements; any other is a type error. */
export type UseMutationOptions<T, V> = {
  mutationFn: (variables: V) => Promise<T>
  onSuccess?: (data: T, variables: V) => unknown
  onError?: (error: Error, variables: V) => unknown
  onSettled?: (data: T | undefined, error: Error | null, variables: V) => unknown
}
type MutateOptions<T, V> = Pick<UseMutationOptions<T, V>, 'onSuccess' | 'onError' | 'onSettled'>

export type MutationResult<T, V> = {
  mutate: (variables: V, options?: MutateOptions<T, V>) => void
  mutateAsync: (variables: V, options?: MutateOptions<T, V>) => Promise<T>
  data: T | undefined
  error: Error | null
  variables: V | undefined
  isIdle: boolean
  isPending: boolean
  isError: boolean
  isSuccess: boolean
  reset: () => void
}

type MutationState<T, V> = Pick<MutationResult<T, V>, 'data' | 'error' | 'variables'> & { status: 'idle' | 'pending' | 'error' | 'success' }
const idle = { status: 'idle', data: undefined, error: null, variables: undefined } as const

/**
 * useMutation as TanStack Query runs it (no retries, the default for
 * mutations): the hook's callbacks run, and are awaited, before mutate's own;
 * mutate reports failures only through callbacks, mutateAsync also rejects.
 */
export function useMutation<T, V = void>(opts: UseMutationOptions<T, V>): MutationResult<T, V> {
  const [state, setState] = useReducer((_: MutationState<T, V>, next: MutationState<T, V>) => next, idle)
  const mutateAsync = async (variables: V, call: MutateOptions<T, V> = {}) => {
    setState({ status: 'pending', data: undefined, error: null, variables })
    try {
      const data = await opts.mutationFn(variables)
      await opts.onSuccess?.(data, variables)
      await opts.onSettled?.(data, null, variables)
      setState({ status: 'success', data, error: null, variables })
      call.onSuccess?.(data, variables)
      call.onSettled?.(data, null, variables)
      return data
    } catch (thrown) {
      const error = thrown as Error
      await opts.onError?.(error, variables)
      await opts.onSettled?.(undefined, error, variables)
      setState({ status: 'error', data: undefined, error, variables })
      call.onError?.(error, variables)
      call.onSettled?.(undefined, error, variables)
      throw error
    }
  }
  return {
    mutate: (variables, call) => void mutateAsync(variables, call).catch(() => {}),
    mutateAsync,
    data: state.data,
    error: state.error,
    variables: state.variables,
    isIdle: state.status === 'idle',
    isPending: state.status === 'pending',
    isError: state.status === 'error',
    isSuccess: state.status === 'success',
    reset: () => setState(idle),
  }
}

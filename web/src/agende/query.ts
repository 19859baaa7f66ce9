/**
 * The data fetching of the public booking pages' light build: the subset of
 * TanStack Query's API those pages use (useQuery with keys, enabled, retry
 * and staleTime; invalidateQueries and setQueryData), with the same meaning.
 * vite.agende.config.ts puts it in place of '@tanstack/react-query' there.
 */
import { useEffect, useReducer } from 'react'

type Key = readonly unknown[]
type Retry = boolean | number | ((failures: number, error: unknown) => boolean)

type Entry = {
  key: Key
  data?: unknown
  error?: unknown
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

function shouldRetry(retry: Retry | undefined, failures: number, error: unknown): boolean {
  if (typeof retry === 'function') return retry(failures, error)
  if (typeof retry === 'number') return failures < retry
  if (retry === false) return false
  return failures < 3 // TanStack Query's default
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
      } catch (err) {
        if (!shouldRetry(e.retry, failures, err)) {
          e.error = err
          break
        }
        await wait(Math.min(1000 * 2 ** failures, 30000))
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

type Options<T> = {
  queryKey: Key
  queryFn: () => Promise<T>
  enabled?: boolean
  retry?: Retry
  staleTime?: number
}

export type QueryResult<T> = {
  data: T | undefined
  error: unknown
  isLoading: boolean
  isPending: boolean
  isFetching: boolean
  isError: boolean
  isSuccess: boolean
  refetch: () => Promise<void>
}

export function useQuery<T>({ queryKey, queryFn, enabled = true, retry, staleTime = 0 }: Options<T>): QueryResult<T> {
  const e = entry(queryKey)
  e.fetcher = queryFn
  e.retry = retry
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  const h = hash(queryKey)
  useEffect(() => {
    const cur = entry(JSON.parse(h) as Key)
    cur.listeners.add(rerender)
    if (enabled && (cur.updatedAt === 0 || Date.now() - cur.updatedAt > staleTime)) void fetchEntry(cur)
    return () => {
      cur.listeners.delete(rerender)
    }
  }, [h, enabled, staleTime])
  const hasResult = e.updatedAt > 0
  const isFetching = e.fetching !== undefined
  return {
    data: e.data as T | undefined,
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
  setQueryData<T>(queryKey: Key, data: T) {
    const e = entry(queryKey)
    e.data = data
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

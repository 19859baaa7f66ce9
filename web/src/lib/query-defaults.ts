/**
 * How both web builds fetch data (the owner app's QueryClient in
 * lib/query-client.ts and the public pages' light stand-in in
 * agende/query.ts): retry a failed query once and never refetch just
 * because the window got focus, as the spec says, and treat data as fresh
 * for 30 s so moving between pages does not refetch it.
 */
export const queryDefaults = {
  retry: 1,
  refetchOnWindowFocus: false,
  staleTime: 30_000,
} as const

import { QueryClient } from '@tanstack/react-query'

// As the spec's app did: retry once, never refetch just because the window got focus.
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
})

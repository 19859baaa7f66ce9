import { QueryClient } from '@tanstack/react-query'
import { queryDefaults } from './query-defaults'

// The defaults are shared with the light build of the public pages.
export const queryClient = new QueryClient({ defaultOptions: { queries: queryDefaults } })

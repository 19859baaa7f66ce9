import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { RouterProvider } from 'react-router'
import { Toaster } from 'sonner'
import { AuthProvider } from '@/lib/auth'
import { queryClient } from '@/lib/query-client'
import { useDarkMode } from '@/lib/theme'
import { createRouter } from './router'

export function App() {
  const [router] = useState(createRouter)
  const [dark] = useDarkMode()
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
        <Toaster richColors closeButton position="top-center" theme={dark ? 'dark' : 'light'} />
      </AuthProvider>
    </QueryClientProvider>
  )
}

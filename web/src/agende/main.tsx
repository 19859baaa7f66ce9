import { StrictMode, Suspense, lazy } from 'react'
import { createRoot } from 'react-dom/client'
import { PageSpinner } from '@/components/ui/spinner'
import { applyStoredTheme } from '@/lib/theme'
import { route, useLocation } from './router'
import '@/index.css'

// The public booking pages on their own (agende.html): what a client opens
// from an owner's link loads only these pages, without the owner app.
const pages = {
  '/agende/:username': lazy(() => import('@/features/public/PublicProfilePage')),
  '/agende/:username/form': lazy(() => import('@/features/booking/BookingPage')),
  '/booking': lazy(() => import('@/features/booking/BookingRoutePage')),
  '/cancel/:token': lazy(() => import('@/features/booking/CancelPage')),
}

function PublicApp() {
  const { pathname } = useLocation()
  const found = route(pathname)
  if (!found) {
    window.location.reload() // not a public page: the full app answers it
    return null
  }
  const Page = pages[found.pattern]
  return (
    <Suspense fallback={<PageSpinner />}>
      <Page />
    </Suspense>
  )
}

applyStoredTheme()
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PublicApp />
  </StrictMode>,
)

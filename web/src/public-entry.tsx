import { StrictMode, Suspense, lazy } from 'react'
import { createRoot } from 'react-dom/client'
import { PageSpinner } from '@/components/ui/spinner'
import { loadPage, publicRoutes } from '@/app/public-routes'
import { applyStoredTheme } from '@/lib/theme'
import { route, useLocation } from '@/agende/router'
import '@/index.css'

// The public booking pages on their own (agende.html): what a client opens
// from an owner's link loads only these pages, without the owner app.
const pages = new Map(publicRoutes.map((r) => [r.path, lazy(loadPage(r))]))

function PublicApp() {
  const { pathname } = useLocation()
  const found = route(pathname)
  if (!found) {
    window.location.reload() // not a public page: the full app answers it
    return null
  }
  const Page = pages.get(found.pattern)!
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

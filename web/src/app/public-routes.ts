import type { ComponentType } from 'react'
// Only `routes`: a named import leaves the list's `about` text out of the bundles.
import { routes } from '../../publicroutes/public-routes.json'

/**
 * The public booking pages, from the one list of them
 * (web/publicroutes/public-routes.json): the full app's router and the light
 * build's router render these; the Go server answers them with the light
 * build (agende.html); scripts/budget.mjs holds each to the page budget.
 * It imports the feature pages, so it lives here in app/ (with the routers),
 * not in lib/: shared code never depends on a feature (eslint.config.js).
 */
export type PublicRoute = {
  path: string
  page: string
  /** Other sites may show it in an iframe (the owner's widget): the Go server's headers allow exactly these paths. */
  framed?: boolean
}

/** Most specific first. */
export const publicRoutes: readonly PublicRoute[] = routes

export type PageModule = { default: ComponentType }

// Vite splits a lazily loaded page only where the code names its file, so
// each page file the list names has its import here (a test checks the two
// agree). Nothing else is listed: paths come from the list.
const pages: Record<string, () => Promise<PageModule>> = {
  'src/features/booking/BookingPage.tsx': () => import('@/features/booking/BookingPage'),
  'src/features/booking/WaitlistPages.tsx': () => import('@/features/booking/WaitlistPages'),
  'src/features/booking/EmbedPage.tsx': () => import('@/features/booking/EmbedPage'),
  'src/features/public/PublicProfilePage.tsx': () => import('@/features/public/PublicProfilePage'),
  'src/features/booking/CancelPage.tsx': () => import('@/features/booking/CancelPage'),
  'src/features/booking/AnswerPage.tsx': () => import('@/features/booking/AnswerPage'),
  'src/features/booking/BookingRoutePage.tsx': () => import('@/features/booking/BookingRoutePage'),
}

/** The page files imported above, for the test that they match the list. */
export const pageFiles = Object.keys(pages)

/** Loads a public route's page component. */
export function loadPage(route: PublicRoute): () => Promise<PageModule> {
  const load = pages[route.page]
  if (!load) throw new Error(`public route ${route.path}: no import for ${route.page} in app/public-routes.ts`)
  return load
}

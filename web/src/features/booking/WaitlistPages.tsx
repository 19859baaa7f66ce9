import { useLocation } from 'react-router'
import { WaitlistEntryPage } from './WaitlistEntryPage'
import { WaitlistOfferPage } from './WaitlistOfferPage'
import { WaitlistPage } from './WaitlistPage'

/**
 * The waitlist's public pages (issue 28, point 3) — the form, the client's
 * link to leave, an offer's claim link — as one page module: one chunk and
 * one lazy import in every public page's entry instead of three.
 */
export default function WaitlistPages() {
  const { pathname } = useLocation()
  if (pathname.startsWith('/lista-de-espera/oferta/')) return <WaitlistOfferPage />
  if (pathname.startsWith('/lista-de-espera/')) return <WaitlistEntryPage />
  return <WaitlistPage />
}

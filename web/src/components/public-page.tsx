import type { ReactNode } from 'react'
import { PublicHeader } from './public-header'
import { SiteFooter } from './site-footer'

/** Frame of the public pages: header, content, footer. */
export function PublicPage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <main className="flex-1">{children}</main>
      <SiteFooter />
    </div>
  )
}

/** A narrow card page for the account forms. */
export function AuthFrame({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <PublicPage>
      <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {subtitle ? <p className="mt-1 text-stone-600 dark:text-stone-400">{subtitle}</p> : null}
        <div className="mt-6 rounded-2xl border border-stone-200 bg-white p-6 shadow-sm dark:border-stone-800 dark:bg-stone-900">{children}</div>
      </div>
    </PublicPage>
  )
}

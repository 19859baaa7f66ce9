/**
 * Toasts for the public booking pages' light build: the same sonner toasts
 * as the full app (same texts, look and place), but sonner is downloaded on
 * the first toast instead of with the page. vite.agende.config.ts puts this
 * in place of 'sonner' for that build.
 */
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'

type Sonner = typeof import('sonner-real')
type Data = { description?: string; duration?: number }
type Kind = 'success' | 'error' | 'warning' | 'info' | 'message'

let loading: Promise<Sonner> | null = null

function load(): Promise<Sonner> {
  loading ??= import('sonner-real').then(async (s) => {
    const host = document.createElement('div')
    document.body.appendChild(host)
    const dark = document.documentElement.classList.contains('dark')
    createRoot(host).render(createElement(s.Toaster, { richColors: true, closeButton: true, position: 'top-center', theme: dark ? 'dark' : 'light' }))
    await new Promise((r) => setTimeout(r, 0)) // let the Toaster subscribe before the first toast
    return s
  })
  return loading
}

const show = (kind: Kind) => (message: string, data?: Data) => {
  void load().then((s) => (kind === 'message' ? s.toast(message, data) : s.toast[kind](message, data)))
}

export const toast = Object.assign(show('message'), {
  success: show('success'),
  error: show('error'),
  warning: show('warning'),
  info: show('info'),
})

import { describe, expect, it, vi } from 'vitest'
import code from '../../public/sw.js?raw'

// The service worker's web push handlers (public/sw.js, issue 41 §4), run
// against stand-ins of the worker's globals: a push shows the notification
// with its actions; an action's tap POSTs its one-tap answer and says what
// happened, or opens the page when the POST fails; a tap on the body opens
// its page and answers nothing.

type Handler = (event: unknown) => void

function worker(fetchImpl: (url: string, init: RequestInit) => Promise<Response>) {
  const handlers: Record<string, Handler> = {}
  const shown: { title: string; options: { body?: string; tag?: string; actions?: unknown[]; data?: unknown } }[] = []
  const opened: string[] = []
  const self = {
    location: { origin: 'https://agendei.example' },
    addEventListener: (type: string, h: Handler) => (handlers[type] = h),
    registration: { showNotification: vi.fn(async (title: string, options: never) => void shown.push({ title, options })) },
    clients: { openWindow: vi.fn(async (url: string) => void opened.push(url)), claim: vi.fn() },
    skipWaiting: vi.fn(),
  }
  const fetchSpy = vi.fn(fetchImpl)
  new Function('self', 'caches', 'fetch', code)(self, {}, fetchSpy)
  const run = async (type: string, event: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve()
    handlers[type]({ ...event, waitUntil: (p: Promise<unknown>) => (done = p) })
    await done
  }
  return { run, shown, opened, fetchSpy }
}

const reminder = {
  title: 'Lembrete: Limpeza amanhã às 14:00',
  body: 'Clínica Sorriso, com Dra. Ana. Confirma sua presença?',
  url: 'https://agendei.example/resposta/tok-remarcar',
  tag: 'abc',
  actions: [
    { action: 'confirm', title: 'Confirmar', url: 'https://agendei.example/resposta/tok-confirmar' },
    { action: 'cancel', title: 'Cancelar', url: 'https://agendei.example/resposta/tok-cancelar' },
  ],
}

const notification = (data: unknown) => ({ tag: 'abc', data, close: vi.fn() })

describe('the service worker and web push', () => {
  it('shows a push with its title, body and the "Confirmar" and "Cancelar" actions', async () => {
    const w = worker(async () => new Response(null))
    await w.run('push', { data: { json: () => reminder } })
    expect(w.shown).toHaveLength(1)
    expect(w.shown[0].title).toBe(reminder.title)
    expect(w.shown[0].options.body).toBe(reminder.body)
    expect(w.shown[0].options.tag).toBe('abc')
    expect(w.shown[0].options.actions).toEqual([
      { action: 'confirm', title: 'Confirmar' },
      { action: 'cancel', title: 'Cancelar' },
    ])
  })

  it('"Confirmar" POSTs its one-tap answer and says "Presença confirmada"', async () => {
    const w = worker(async () => new Response(JSON.stringify({ serviceName: 'Limpeza', date: '2026-11-26', time: '14:00', already: false }), { status: 200 }))
    await w.run('notificationclick', { action: 'confirm', notification: notification({ url: reminder.url, actions: reminder.actions }) })
    expect(w.fetchSpy).toHaveBeenCalledWith('/api/public/answers/tok-confirmar', expect.objectContaining({ method: 'POST', headers: { 'X-Agendei-Client': 'service-worker' } }))
    expect(w.shown.map((s) => [s.title, s.options.body])).toEqual([['Presença confirmada', 'Limpeza em 26/11 às 14:00. Até lá!']])
    expect(w.opened).toEqual([])
  })

  it('"Cancelar" refused (past the cutoff) opens its page, which says why', async () => {
    const w = worker(async () => new Response(JSON.stringify({ error: { code: 'cancel_cutoff', message: 'x' } }), { status: 409 }))
    await w.run('notificationclick', { action: 'cancel', notification: notification({ url: reminder.url, actions: reminder.actions }) })
    expect(w.opened).toEqual(['https://agendei.example/resposta/tok-cancelar'])
    expect(w.shown).toEqual([])
  })

  it('a tap on the body opens its page and answers nothing', async () => {
    const w = worker(async () => new Response(null))
    await w.run('notificationclick', { action: '', notification: notification({ url: reminder.url, actions: reminder.actions }) })
    expect(w.opened).toEqual([reminder.url])
    expect(w.fetchSpy).not.toHaveBeenCalled()
  })
})

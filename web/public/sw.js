// Agendei's service worker: the owner app's shell (its HTML, scripts, styles
// and icons) is kept so the app opens from the home screen, also offline.
// Answers with personal data — /api/, calendar feeds, uploaded files — are
// never cached: they always go to the network.
const SHELL = 'agendei-shell-v1'
const START = ['/', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png']

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(START))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  )
})

const personal = (path) => path.startsWith('/api/') || path.startsWith('/calendar/') || path.startsWith('/files/') || path.startsWith('/webhooks/')

self.addEventListener('fetch', (event) => {
  const request = event.request
  const url = new URL(request.url)
  if (request.method !== 'GET' || url.origin !== self.location.origin || personal(url.pathname)) return
  if (request.mode === 'navigate') {
    // The page from the network when there is one; offline, the app shell
    // (the app's router then draws the page, and its data says it is offline).
    event.respondWith(fetch(request).catch(() => caches.match('/').then((shell) => shell || Response.error())))
    return
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    // Built files never change under one name: the cache first, kept on first use.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone()
              void caches.open(SHELL).then((cache) => cache.put(request, copy))
            }
            return response
          }),
      ),
    )
  }
})

// Web push (issue 41 §4): a reminder, a waitlist offer or a notice of a
// cancellation or a move, encrypted by the server to this browser's keys
// and decrypted by the browser before this sees it. Its JSON: title, body,
// url (opened by a tap), tag (a second copy replaces the first) and
// actions — a reminder's "Confirmar" and "Cancelar", each a one-tap answer
// link.
self.addEventListener('push', (event) => {
  let n = {}
  try {
    n = event.data ? event.data.json() : {}
  } catch {
    n = {}
  }
  const actions = Array.isArray(n.actions) ? n.actions : []
  event.waitUntil(
    self.registration.showNotification(n.title || 'Agendei', {
      body: n.body || '',
      tag: n.tag || undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: n.url || '/', actions },
      actions: actions.map((a) => ({ action: a.action, title: a.title })),
    }),
  )
})

// A tap on an action is the client's answer, as a button on the page is:
// the one-tap link's POST, then a notification saying what happened. If
// the POST fails (offline, past the practice's cutoff, moved since), the
// link's page opens instead and says why. A tap on the body opens its page
// (which changes nothing until its button).
self.addEventListener('notificationclick', (event) => {
  const note = event.notification
  const data = note.data || {}
  note.close()
  const action = (data.actions || []).find((a) => a.action === event.action)
  event.waitUntil(action ? answer(action, note.tag) : open(data.url))
})

function open(url) {
  return url ? self.clients.openWindow(url) : Promise.resolve()
}

const day = (date) => (typeof date === 'string' && date.length === 10 ? `${date.slice(8, 10)}/${date.slice(5, 7)}` : '')

async function answer(action, tag) {
  try {
    const token = new URL(action.url, self.location.origin).pathname.split('/').pop()
    const res = await fetch(`/api/public/answers/${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'X-Agendei-Client': 'service-worker' },
      credentials: 'same-origin',
    })
    if (!res.ok) throw new Error(`answer ${res.status}`)
    const r = await res.json()
    const when = `${r.serviceName} em ${day(r.date)} às ${r.time}`
    const said =
      action.action === 'cancel'
        ? [r.already ? 'Agendamento já estava cancelado' : 'Agendamento cancelado', `${when}. O horário foi liberado.`]
        : [r.already ? 'Presença já estava confirmada' : 'Presença confirmada', `${when}. Até lá!`]
    await self.registration.showNotification(said[0], { body: said[1], tag, icon: '/icons/icon-192.png', data: { url: action.url, actions: [] } })
  } catch {
    await open(action.url)
  }
}

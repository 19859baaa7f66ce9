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

import { expect, test } from '@playwright/test'
import { apiOwner, login, uniqueEmail } from './helpers'

test('the owner app is installable: a valid manifest and icons, a service worker that keeps the shell (never API answers) and opens offline', async ({ page, request }) => {
  const manifest = await request.get('/manifest.webmanifest')
  expect(manifest.headers()['content-type']).toContain('application/manifest+json')
  const m = await manifest.json()
  expect(m).toMatchObject({ short_name: 'Agendei', start_url: '/dashboard', display: 'standalone', lang: 'pt-BR' })
  for (const icon of m.icons as { src: string; sizes: string }[]) {
    const res = await request.get(icon.src)
    expect(res.headers()['content-type']).toBe('image/png')
    const png = await res.body()
    const [w, h] = icon.sizes.split('x').map(Number)
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([w, h])
  }

  const email = uniqueEmail('pwa')
  await apiOwner(request, { name: 'Dona Cléo', business: 'Clínica Cléo', area: 'Psicologia', username: `pwa${Date.now()}`, email, professional: 'Cléo', priceCents: 10000 })
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state)).toBe('activated')

  // Chromium's own installability check (the one Lighthouse reports). Test
  // browsers run as incognito profiles, which is the browser's state, not the app's.
  const cdp = await page.context().newCDPSession(page)
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([])

  // Visit a few screens, then go offline: the app still opens, and no answer with data was kept.
  await page.goto('/agenda')
  await expect(page.getByRole('heading', { name: 'Agenda' })).toBeVisible()
  await page.context().setOffline(true)
  await page.goto('/dashboard')
  await expect(page.locator('#root > *').first()).toBeVisible()
  await page.context().setOffline(false)
  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const key of await caches.keys()) for (const req of await (await caches.open(key)).keys()) urls.push(new URL(req.url).pathname)
    return urls
  })
  expect(cached).toContain('/')
  expect(cached.some((u) => u.startsWith('/assets/'))).toBe(true)
  expect(cached.filter((u) => u.startsWith('/api/') || u.startsWith('/calendar/') || u.startsWith('/files/'))).toEqual([])
})

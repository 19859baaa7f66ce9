import AxeBuilder from '@axe-core/playwright'
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`
}

/**
 * A signup through the API from a visitor of its own: the server limits
 * signups per address (20 an hour), and the suite makes more than that.
 * The e2e server trusts X-Forwarded-For (--trust-proxy), as behind a proxy.
 */
export function apiSignup(request: APIRequestContext, data: { name: string; email: string; password: string; recoveryKeyword: string }) {
  return request.post('/api/auth/signup', { headers: { 'X-Agendei-Client': 'e2e', 'X-Forwarded-For': visitorAddress() }, data })
}

/** An address of a visitor of its own, for the e2e server that trusts X-Forwarded-For. */
const visitorAddress = () => `10.${100 + Math.floor(Math.random() * 100)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`

export async function signup(page: Page, name: string, email: string, password: string, keyword: string) {
  await page.goto('/signup')
  await page.getByLabel('Nome completo').fill(name)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Senha', { exact: true }).fill(password)
  await page.getByLabel('Confirmar senha').fill(password)
  await page.getByLabel('Palavra-chave de recuperação').fill(keyword)
  await page.getByRole('button', { name: 'Criar conta e começar teste grátis' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
}

/**
 * Signs in through the login page. The sign-in itself comes from a visitor of its own: the server allows 50
 * sign-ins an address in 15 minutes, and the suite (every spec's owner on 127.0.0.1, in about 7 minutes)
 * makes about that many — CI's run refused the 51st.
 */
export async function login(page: Page, email: string, password: string) {
  await page.route(
    '**/api/auth/login',
    (route) => route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': visitorAddress() } }),
    { times: 1 },
  )
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Senha', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
}

/** Waits for an e-mail to `to` in the server's .eml outbox and returns it, quoted-printable undone. */
export async function waitForMail(to: string, subjectPart: string): Promise<string> {
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox')
  let found = ''
  await expect
    .poll(
      () => {
        let names: string[] = []
        try {
          names = readdirSync(dir).filter((n) => n.endsWith('.eml'))
        } catch {
          return ''
        }
        for (const n of names.sort()) {
          const raw = readFileSync(join(dir, n), 'utf8')
          const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
          if (text.includes(`<${to}>`) && text.includes(subjectPart)) found = text
        }
        return found
      },
      { timeout: 15_000 },
    )
    .not.toBe('')
  return found
}

export const H = { 'X-Agendei-Client': 'e2e' }

/**
 * The 'Configuração manual (avançado)' fold of the connection card whose manual form is named `form` ('Conectar
 * WhatsApp Business', 'Conectar Mercado Pago'): with the one-button connections configured, the e2e server's
 * profile folds more than one card's form.
 */
export const manualFold = (page: Page, form: string) =>
  page.locator('details').filter({ has: page.getByRole('form', { name: form, includeHidden: true }) }).getByText('Configuração manual (avançado)')

/** The agenda's time grid. */
export const agendaGrid = (page: Page) => page.getByRole('region', { name: 'Grade da agenda' })
/** An appointment in the grid, by its start and client (its name reads "HH:MM Client, service, …"). */
export const gridAppointment = (page: Page, time: string, client: string) => agendaGrid(page).getByRole('button', { name: new RegExp(`^${time} ${client},`) })
/** A free stretch of the grid that a tap books ("DISPONÍVEL HH:MM — who"). */
export const gridFree = (page: Page, time: string) => agendaGrid(page).getByRole('button', { name: new RegExp(`^DISPONÍVEL ${time} `) })

/** An owner made through the API: signed up, onboarded open 08:00–20:00 every day with one service, and one professional. */
export async function apiOwner(request: APIRequestContext, o: { name: string; business: string; area: string; username: string; email: string; professional: string; priceCents: number }) {
  const signup = await apiSignup(request, { name: o.name, email: o.email, password: 'segredo1', recoveryKeyword: 'gato' })
  const auth = { ...H, Authorization: `Bearer ${(await signup.json()).accessToken}` }
  const days = Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, enabled: true, start: '08:00', end: '20:00' }))
  await request.post('/api/onboarding', {
    headers: auth,
    data: { name: o.business, area: o.area, publicUsername: o.username, services: [{ name: 'Sessão', duration: 60, priceCents: o.priceCents }], days },
  })
  const pro = await (await request.post('/api/professionals', { headers: auth, data: { name: o.professional, specialization: 'Especialista' } })).json()
  const services = await (await request.get('/api/services', { headers: auth })).json()
  return { auth, professional: pro.id as string, service: services[0].id as string }
}

/**
 * axe-core on one screen once `ready` says it is drawn: any serious or
 * critical violation fails the test (softly, so one run lists them all),
 * naming rule and elements.
 */
export async function audit(page: Page, path: string, ready: (p: Page) => Promise<void>) {
  await page.goto(path)
  await ready(page)
  // label-content-name-mismatch (WCAG 2.5.3: a control's name contains its visible text) is one of axe's experimental rules, off unless asked for.
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice', 'experimental'])
    .analyze()
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const report = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`)
  const size = page.viewportSize()
  expect.soft(report, `${path} (${(await page.evaluate(() => document.documentElement.classList.contains('dark'))) ? 'dark' : 'light'}, ${size?.width}×${size?.height})`).toEqual([])
}

/**
 * A desktop drag as a hand makes it: both ends on screen first, then press, move in steps and release. Locator.dragTo
 * scrolls the target into view between the press and the first move, and Chromium keeps the press point in the
 * viewport, so a page that scrolls there starts no drag at all (no dragstart: nothing is dropped and nothing is said).
 * * Since the day's waitlist under the grid (ff5ae07) made the page tall enough, that is what agenda-grid's desktop test did.
 */
export async function drag(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!
  const b = (await to.boundingBox())!
  const by = (Math.min(a.y, b.y) + Math.max(a.y + a.height, b.y + b.height)) / 2 - page.viewportSize()!.height / 2
  await page.evaluate((y) => window.scrollBy({ top: y, behavior: 'instant' }), by)
  await expect(from).toBeInViewport()
  await expect(to).toBeInViewport()
  const s = (await from.boundingBox())!
  const t = (await to.boundingBox())!
  await page.mouse.move(s.x + 10, s.y + 5)
  await page.mouse.down()
  await page.mouse.move(t.x + 10, t.y + 5, { steps: 8 })
  await page.mouse.up()
}

/** A date (yyyy-mm-dd) as São Paulo calls the instant ms. */
export const inSaoPaulo = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms))

/** Waits until the page scrolls no wider than the phone's 360 px. */
export const noSideScroll = async (page: Page) =>
  expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

/** A second person's phone (a professional of the team), beside the owner's page. */
export const phoneContext = (browser: Browser, baseURL: string | undefined) =>
  browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' })

/** The invitation link (its path, /convite/…) e-mailed to a professional of the team (issue 43 §0). */
export async function invitationPath(email: string): Promise<string> {
  const mail = await waitForMail(email, 'Seu acesso')
  const path = /\/convite\/[A-Za-z0-9_-]+/.exec(mail)?.[0]
  expect(path).toBeTruthy()
  return path!
}

/**
 * Creates a professional's access on the invitation page, from a visitor address of its own (the server bounds
 * sign-ups per address), and lands on their agenda.
 */
export async function acceptInvitation(page: Page, path: string, visitorAddress: string) {
  await page.route('**/api/invites/*', (route) =>
    route.request().method() === 'POST' ? route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': visitorAddress } }) : route.continue(),
  )
  await page.goto(path)
  await page.getByLabel('Senha', { exact: true }).fill('senha-da-paula')
  await page.getByLabel('Confirmar senha').fill('senha-da-paula')
  await page.getByLabel('Palavra-chave de recuperação').fill('jabuti')
  await page.getByRole('button', { name: 'Criar meu acesso' }).click()
  await expect(page).toHaveURL(/\/agenda$/)
}

/**
 * Clínica Rita (issue 43's journeys): the owner Dona Rita, the psychologist Paula Lima (CRP 06/12345) of her team —
 * not yet invited — and Paula's client Carla Souza, booked on the public page for tomorrow at 09:00 from
 * visitorAddress. Returns the owner's session, their e-mails, Paula's id and the booking's id and private token.
 */
export async function clinicWithPaula(request: APIRequestContext, prefix: string, visitorAddress: string) {
  const username = `${prefix}${Date.now()}`
  const email = uniqueEmail(prefix)
  const paulaEmail = uniqueEmail('paula')
  const s = await apiOwner(request, { name: 'Dona Rita', business: 'Clínica Rita', area: 'Psicologia', username, email, professional: 'Rita', priceCents: 15000 })
  const created = await request.post('/api/professionals', {
    headers: s.auth,
    data: { name: 'Paula Lima', specialization: 'Psicóloga', email: paulaEmail, council: 'CRP', councilUf: 'SP', councilNumber: '06/12345' },
  })
  expect(created.status()).toBe(201)
  const paulaId = (await created.json()).id as string
  const booked = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': visitorAddress },
    data: { professionalId: paulaId, serviceId: s.service, date: inSaoPaulo(Date.now() + 864e5), time: '09:00', clientName: 'Carla Souza', clientPhone: '(11) 97777-1234' },
  })
  expect(booked.status()).toBe(201)
  const { id: ref, token } = (await booked.json()) as { id: string; token: string }
  return { s, email, paulaEmail, paulaId, ref, token }
}

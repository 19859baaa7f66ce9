import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { apiOwner, H, inSaoPaulo, login, uniqueEmail, waitForMail } from './helpers'

// Most owners run their practice from a phone: at 360×780 no page may be
// wider than the screen, and every dialog's primary button must be reachable
// by scrolling the dialog (on phones dialogs are bottom sheets with their
// action bar at the bottom).
const W = 360
const H_ = 780
// A phone's browser: the page's meta viewport counts, and taps are touches.
test.use({ viewport: { width: W, height: H_ }, isMobile: true, hasTouch: true })

/** The page is no wider than the screen; a failure names the elements that push it wider. */
async function fits(page: Page, label: string) {
  const r = await page.evaluate((w) => {
    const over = (e: Element | null) => e !== null && e.getBoundingClientRect().right > w + 0.5
    // Where the overflow starts: elements past the right edge inside a parent that is not.
    const culprits = Array.from(document.body.querySelectorAll('*'))
      .filter((e) => over(e) && !over(e.parentElement))
      .slice(0, 5)
      .map((e) => `<${e.tagName.toLowerCase()} class="${(e.getAttribute('class') ?? '').slice(0, 80)}"> ends at ${Math.round(e.getBoundingClientRect().right)} px`)
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, culprits }
  }, W)
  expect.soft(r.innerWidth, `${label}: the browser widened its viewport to ${r.innerWidth} px`).toBe(W)
  expect.soft(r.scrollWidth, `${label}: the page is ${r.scrollWidth} px wide on a ${W} px screen\n  ${r.culprits.join('\n  ')}`).toBeLessThanOrEqual(W)
}

async function visit(page: Page, path: string, ready: (p: Page) => Promise<void>) {
  await page.goto(path)
  await ready(page)
  await fits(page, path)
}

const heading = (name: string | RegExp) => async (p: Page) => {
  await expect(p.getByRole('heading', { name }).first()).toBeVisible()
}

/** The dialog fits the screen, and its primary button, scrolled into view inside it, is on screen and takes a tap. */
async function reachable(page: Page, dialog: Locator, primary: string, label: string) {
  await expect(dialog).toBeVisible()
  const box = await dialog.boundingBox()
  expect.soft(box!.x, `${label}: the dialog starts left of the screen`).toBeGreaterThanOrEqual(0)
  expect.soft(box!.x + box!.width, `${label}: the dialog ends right of the screen`).toBeLessThanOrEqual(W + 0.5)
  const button = dialog.getByRole('button', { name: primary, exact: true })
  await button.scrollIntoViewIfNeeded()
  const b = (await button.boundingBox())!
  const inside = b.x >= 0 && b.y >= 0 && b.x + b.width <= W + 0.5 && b.y + b.height <= H_ + 0.5
  expect.soft(inside, `${label}: "${primary}" at x=${Math.round(b.x)} y=${Math.round(b.y)} w=${Math.round(b.width)} h=${Math.round(b.height)} is off a ${W}×${H_} screen`).toBe(true)
  // Nothing covers it: a tap lands on the button itself.
  if (await button.isEnabled()) await button.click({ trial: true })
  await fits(page, `${label} (dialog open)`)
}

/**
 * The dashboard's lists ("Agendamentos de hoje", "Sinais pendentes"): each
 * row's link opens with its time, drawn whole on the screen (a long service
 * name truncates instead), and no status shows raw.
 */
async function timesFirst(page: Page) {
  for (const link of await page.locator('main li a[href^="/appointment/"]').all()) {
    const first = link.locator('span').first()
    await expect(first).toHaveText(/\d\d:\d\d$/)
    const whole = await first.evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5 && el.getBoundingClientRect().right <= window.innerWidth + 0.5)
    expect.soft(whole, `dashboard: "${await link.textContent()}" cuts its time`).toBe(true)
  }
  await expect(page.locator('main')).not.toContainText(/\b(no_show|completed|cancelled|confirmed)\b/)
}

/** What the owner's sweep opens: a day with appointments, one of them, a client and the public username. */
type Practice = { date: string; appointment: string; client: string; clientName: string; professional: string; username: string }

/** Every signed-in route, then the dialogs, each with its primary button in reach. */
async function ownerSweep(page: Page, p: Practice) {
  await visit(page, '/dashboard', heading(/.+/))
  await timesFirst(page)
  await visit(page, '/agenda', heading('Agenda'))
  await visit(page, `/agenda?d=${p.date}`, async (pg) => {
    await expect(pg.getByRole('region', { name: 'Grade da agenda' }).getByRole('button', { name: /^\d\d:\d\d / }).first()).toBeVisible()
  })
  await visit(page, `/agenda?v=week&d=${p.date}`, heading('Agenda'))
  await visit(page, `/agenda?v=month&d=${p.date}`, heading('Agenda'))
  await visit(page, `/appointment/${p.appointment}`, async (pg) => {
    await expect(pg.getByRole('button', { name: /^(Marcar como concluído|Confirmar|Remarcar)$/ }).first()).toBeVisible()
  })
  await visit(page, '/clients', async (pg) => {
    await expect(pg.getByRole('link', { name: new RegExp(`^Ver histórico de ${p.clientName}`) }).or(pg.getByText(p.clientName)).first()).toBeVisible()
  })
  await visit(page, `/clients/${encodeURIComponent(p.client)}`, async (pg) => {
    await expect(pg.getByText(p.clientName).first()).toBeVisible()
  })
  await visit(page, `/clients/${encodeURIComponent(p.client)}/statement/${p.date.slice(0, 7)}`, heading(/^Extrato de /))
  await visit(page, '/professionals', async (pg) => {
    await expect(pg.getByText(p.professional).first()).toBeVisible()
  })
  await visit(page, '/services', heading(/Serviços/))
  await visit(page, '/add-service', heading(/.+/))
  await visit(page, '/configure-hours', heading(/.+/))
  await visit(page, '/reports', heading(/Relatórios/))
  await visit(page, '/reports/receita-saude', heading(/^Receita Saúde — /))
  await visit(page, '/notifications', heading(/Notificações/))
  await visit(page, '/profile', heading(/Perfil/))
  await visit(page, '/onboarding', heading(/.+/))
  await visit(page, `/preview/${p.username}`, heading(/.+/))
  await visit(page, '/subscribe', heading(/.+/))
  const subscribe = page.getByRole('button', { name: 'Assinar agora' })
  if (await subscribe.isVisible()) {
    await subscribe.click()
    await expect(page.getByText('Pagamento de teste', { exact: true })).toBeVisible()
    await fits(page, '/checkout/test/:id')
  }
  await visit(page, '/subscription-success', heading(/.+/))

  await page.goto(`/agenda?d=${p.date}`)
  await page.getByRole('button', { name: 'Novo agendamento', exact: true }).click()
  await reachable(page, page.getByRole('dialog', { name: 'Novo agendamento' }), 'Agendar', 'Novo agendamento')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Bloquear horário' }).click()
  await reachable(page, page.getByRole('dialog', { name: 'Bloquear horário' }), 'Bloquear', 'Bloquear horário')
  await page.keyboard.press('Escape')
  await page.goto(`/agenda?d=${p.date}`)
  await page.getByRole('region', { name: 'Grade da agenda' }).getByRole('button', { name: /^\d\d:\d\d / }).first().click()
  const details = page.getByRole('dialog', { name: 'Detalhes do agendamento' })
  await expect(details).toBeVisible()
  const last = details.getByRole('button', { name: 'Cancelar agendamento' }).or(details.getByRole('button', { name: 'Confirmar' }))
  await reachable(page, details, (await last.first().textContent())!.trim(), 'Detalhes do agendamento')
  if (await details.getByRole('button', { name: 'Cancelar agendamento' }).isVisible()) {
    // The confirmation is a sheet too; Escape answers it and leaves the details open.
    await details.getByRole('button', { name: 'Cancelar agendamento' }).click()
    const question = page.getByRole('alertdialog', { name: 'Cancelar este agendamento?' })
    await reachable(page, question, 'Cancelar agendamento', 'Cancelar este agendamento?')
    await page.keyboard.press('Escape')
    await expect(question).toBeHidden()
    await expect(details).toBeVisible()
  }
  await page.keyboard.press('Escape')

  await page.goto('/services')
  await page.getByRole('button', { name: 'Novo Serviço' }).first().click()
  await reachable(page, page.getByRole('dialog', { name: 'Novo Serviço' }), 'Criar Serviço', 'Novo Serviço')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: /^Excluir / }).first().click()
  await reachable(page, page.getByRole('alertdialog'), 'Excluir serviço', 'Excluir o serviço')
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancelar', exact: true }).click()
  await expect(page.getByRole('alertdialog')).toBeHidden()

  await page.goto('/professionals')
  await page.getByRole('button', { name: 'Adicionar profissional' }).first().click()
  await reachable(page, page.getByRole('dialog', { name: 'Adicionar profissional' }), 'Adicionar', 'Adicionar profissional')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: `Horários de ${p.professional}` }).first().click()
  const hours = page.getByRole('dialog', { name: `Horários de ${p.professional}` })
  await expect(hours.getByRole('button', { name: 'Salvar horários' })).toBeVisible()
  await reachable(page, hours, 'Salvar horários', 'Horários do profissional')
  await page.keyboard.press('Escape')

  await page.goto('/profile')
  await page.getByRole('button', { name: 'Excluir conta' }).click()
  await reachable(page, page.getByRole('dialog'), 'Excluir minha conta', 'Excluir conta')
  await page.keyboard.press('Escape')

  await page.goto(`/clients/${encodeURIComponent(p.client)}`)
  await page.getByRole('button', { name: 'Excluir dados do cliente' }).click()
  await reachable(page, page.getByRole('dialog'), 'Excluir dados', 'Excluir dados do cliente')
  await page.keyboard.press('Escape')
}

test('every route and every main dialog fits a 360×780 phone', async ({ page, request }) => {
  test.setTimeout(240_000)
  const username = `celular${Date.now()}`
  const email = uniqueEmail('celular')
  const s = await apiOwner(request, {
    name: 'Dona Marina Albuquerque',
    business: 'Espaço Terapêutico Marina Albuquerque de Vasconcellos',
    area: 'Fisioterapia',
    username,
    email,
    professional: 'Marina Albuquerque',
    priceCents: 18000,
  })
  // A practice of a few people, and a service with a long name.
  for (const name of ['Carlos Eduardo Figueiredo', 'Ana Beatriz Nogueira']) {
    await request.post('/api/professionals', { headers: s.auth, data: { name, specialization: 'Fisioterapeuta' } })
  }
  expect(
    (await request.post('/api/services', { headers: s.auth, data: { name: 'Avaliação fisioterapêutica completa com reavaliação postural', duration: 90, priceCents: 25000 } })).status(),
  ).toBeLessThan(300)
  // Two bookings tomorrow, one by a client with a long e-mail (her private link comes by mail).
  const date = inSaoPaulo(Date.now() + 864e5)
  const clientEmail = `${username}.maria.das.gracas.figueiredo@example.com`
  const clientName = 'Maria das Graças Figueiredo de Albuquerque'
  for (const [time, name, extra] of [
    ['09:00', clientName, { clientEmail, clientPhone: '(11) 98888-7777' }],
    ['11:00', 'João Pedro', { clientPhone: '(11) 97777-6666' }],
  ] as const) {
    const r = await request.post(`/api/public/profiles/${username}/bookings`, {
      headers: { ...H, 'X-Forwarded-For': `10.7.${time.slice(0, 2)}.1` },
      data: { professionalId: s.professional, serviceId: s.service, date, time, clientName: name, notes: 'Dor lombar há duas semanas; trazer exames.', ...extra },
    })
    expect(r.status()).toBe(201)
  }
  const cancelPath = (await waitForMail(clientEmail, 'Agendamento confirmado')).match(/\/cancel\/[A-Za-z0-9_-]+/)![0]
  const list = await (await request.get(`/api/appointments?from=${date}&to=${date}`, { headers: s.auth })).json()
  const appointment = list.appointments.find((a: { time: string }) => a.time === '09:00').id as string
  const clients = (await (await request.get('/api/clients', { headers: s.auth })).json()).clients as { name: string; identifier: string }[]
  const client = clients.find((c) => c.name === clientName)!.identifier

  // Signed out: the public pages and the ones around the sign-in.
  await visit(page, '/', heading(/.+/))
  await visit(page, '/login', heading(/.+/))
  await visit(page, '/signup', heading(/.+/))
  await visit(page, '/forgot-password', heading(/.+/))
  await visit(page, '/account-success', heading(/.+/))
  await visit(page, '/policy', heading(/.+/))
  await visit(page, '/terms', heading(/.+/))
  await visit(page, '/support', heading(/.+/))
  await visit(page, '/reviews', heading(/.+/))
  await visit(page, '/pagina-que-nao-existe', heading(/.+/))
  await visit(page, `/agende/${username}`, heading(/Espaço Terapêutico/))
  await visit(page, `/agende/${username}/form?service=${s.service}&professional=${s.professional}&date=${date}`, async (p) => {
    await expect(p.getByLabel('Horário', { exact: true })).toBeVisible()
  })
  await visit(page, `/booking?username=${username}`, heading(/Espaço Terapêutico/))
  await visit(page, `/embed/${username}`, heading(/Espaço Terapêutico/))
  await visit(page, cancelPath, heading('Seu agendamento'))

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await ownerSweep(page, { date, appointment, client, clientName, professional: 'Marina Albuquerque', username })
})

const freePort = () =>
  new Promise<number>((done) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => done(port))
    })
  })

test('the demo practice, with its months of data, fits a 360×780 phone on every owner route and dialog', async ({ browser }) => {
  test.setTimeout(300_000)
  const dir = mkdtempSync(join(tmpdir(), 'agendei-demo-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const demo = spawn('../bin/agendei', ['demo', '--addr', `127.0.0.1:${port}`, '--data-dir', dir, '--base-url', base, '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  demo.stdout.on('data', (b) => (out += String(b)))
  demo.stderr.on('data', (b) => (out += String(b)))
  try {
    await expect.poll(() => out, { timeout: 90_000 }).toContain('Demonstração pronta')
    const email = /e-mail: (\S+)/.exec(out)![1]
    const password = /senha:\s+(\S+)/.exec(out)![1]
    const ctx = await browser.newContext({ baseURL: base, viewport: { width: W, height: H_ }, isMobile: true, hasTouch: true, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' })
    const page = await ctx.newPage()
    const signin = await ctx.request.post('/api/auth/login', { headers: H, data: { email, password } })
    const auth = { ...H, Authorization: `Bearer ${(await signin.json()).accessToken}` }
    // The busiest day of the coming week, one of its appointments, and the most frequent client.
    const from = inSaoPaulo(Date.now())
    const to = inSaoPaulo(Date.now() + 6 * 864e5)
    const week = (await (await ctx.request.get(`/api/appointments?from=${from}&to=${to}`, { headers: auth })).json()).appointments as { id: string; date: string }[]
    const perDay = new Map<string, number>()
    for (const a of week) perDay.set(a.date, (perDay.get(a.date) ?? 0) + 1)
    const date = [...perDay].sort((a, b) => b[1] - a[1])[0][0]
    const clients = (await (await ctx.request.get('/api/clients', { headers: auth })).json()).clients as { name: string; identifier: string; appointmentCount: number }[]
    const client = clients.sort((a, b) => b.appointmentCount - a.appointmentCount)[0]
    const professionals = (await (await ctx.request.get('/api/professionals', { headers: auth })).json()) as { name: string }[]
    const profile = await (await ctx.request.get('/api/profile', { headers: auth })).json()

    // The API sign-in left the session's cookie in this context: the app opens signed in.
    await page.goto('/dashboard')
    await ownerSweep(page, {
      date,
      appointment: week.find((a) => a.date === date)!.id,
      client: client.identifier,
      clientName: client.name,
      professional: professionals[0].name,
      username: profile.publicUsername ?? 'bemviver-demo',
    })
    await ctx.close()
  } catch (e) {
    // What the demo's server said (warnings and errors) tells a lost sign-in from a slow page.
    console.log(`agendei demo printed:\n${out.slice(-4000)}`)
    throw e
  } finally {
    demo.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
})

import { expect, test } from '@playwright/test'
import { apiOwner, H, inSaoPaulo, login, uniqueEmail } from './helpers'

// The fake Google (cmd/gcalfake, started by playwright.config.ts): its one account and its calendars.
const gcal = process.env.E2E_GCAL_URL as string
const account = process.env.E2E_GOOGLE_ACCOUNT as string
const office = 'c_consultorio.e2e@group.calendar.google.com'

type FakeEvent = { id: string; summary: string; location: string; start: string; end: string; zone: string; cancelled: boolean }

// A phone's browser, as the phone sweep has it: the page's meta viewport counts.
test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true })

test("'Conectar Google Agenda': the consent page, the calendars, an owner's Google event closes its time, a booking is written into Google, a revoked grant is said", async ({ page, request }) => {
  test.setTimeout(120_000)
  const username = `google${Date.now()}${Math.floor(Math.random() * 1000)}`
  const email = uniqueEmail('google')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Consultório Lia', area: 'Psicologia', username, email, professional: 'Ana Lima', priceCents: 15000 })
  const date = inSaoPaulo(Date.now() + 3 * 864e5)
  const times = async () =>
    (await (await request.get(`/api/public/profiles/${username}/times?date=${date}&professional=${s.professional}&service=${s.service}`, { headers: H })).json()).times as string[]
  const events = async (calendar: string) =>
    ((await (await request.get(`${gcal}/_fake/events?calendar=${encodeURIComponent(calendar)}`)).json()) as FakeEvent[]).filter((e) => !e.cancelled && e.start.startsWith(date))
  expect(await times()).toContain('14:00')

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  const card = page.getByRole('list', { name: 'Agendas pessoais' })
  await card.getByRole('button', { name: 'Conectar Google Agenda — Ana Lima' }).click()

  // Google's consent page (the fake's), then back at /profile/google, then the profile.
  await expect(page).toHaveURL(new RegExp(`^${gcal.replaceAll('.', '\\.')}/o/oauth2/v2/auth\\?`))
  await expect(page.getByText('O Agendei quer acessar sua Conta do Google')).toBeVisible()
  await page.getByRole('button', { name: 'Permitir' }).click()
  await expect(page).toHaveURL(/\/profile$/, { timeout: 20_000 })
  await expect(card.getByText(new RegExp(`Google Agenda: ${account.replaceAll('.', '\\.')} · lida às \\d\\d:\\d\\d`))).toBeVisible({ timeout: 20_000 })

  // The account's calendars: the primary counts as busy; only the ones it may write can receive the appointments.
  await card.getByRole('button', { name: 'Escolher agendas do Google — Ana Lima' }).click()
  const form = page.getByRole('form', { name: 'Agendas do Google — Ana Lima' })
  await expect(form.getByRole('checkbox', { name: 'Dona (principal)' })).toBeChecked()
  await expect(form.getByRole('checkbox', { name: 'Consultório' })).not.toBeChecked()
  await expect(form.getByRole('checkbox', { name: 'Feriados no Brasil' })).toBeVisible()
  const write = form.getByLabel('Agenda que recebe os agendamentos')
  expect(await write.locator('option').allTextContents()).toEqual(['Nenhuma (não gravar os agendamentos)', 'Dona (principal)', 'Consultório'])
  await write.selectOption({ label: 'Consultório' })
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

  // The owner's dentist in Google Calendar itself, 14:00–15:00; saving the choice reads the account at once.
  const put = await request.post(`${gcal}/_fake/events?calendar=${encodeURIComponent(account)}`, {
    data: { summary: 'Dentista secreto', start: `${date}T14:00:00-03:00`, end: `${date}T15:00:00-03:00` },
  })
  expect(put.status()).toBe(200)
  await form.getByRole('button', { name: 'Salvar agendas' }).click()
  await expect(card.getByText(/recebe os agendamentos na agenda escolhida/)).toBeVisible()
  await expect.poll(times, { timeout: 20_000 }).not.toContain('14:00')
  const after = await times()
  for (const gone of ['13:30', '14:30']) expect(after).not.toContain(gone)
  for (const stays of ['13:00', '15:00', '10:00']) expect(after).toContain(stays)
  expect(await (await request.get(`/api/public/profiles/${username}`, { headers: H })).text()).not.toContain('Dentista')

  // A client books 10:00 on the public page: the event appears in 'Consultório', once, with the first name only.
  await page.goto(`/agende/${username}/form?service=${s.service}&professional=${s.professional}&date=${date}`)
  await page.getByLabel('Horário', { exact: true }).selectOption('10:00')
  await page.getByLabel('Nome completo *').fill('Maria Silva')
  await page.getByLabel('Telefone *').fill('(11) 98888-7777')
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click()
  await expect(page.getByRole('heading', { name: 'Agendamento confirmado!' })).toBeVisible()
  await expect.poll(async () => (await events(office)).map((e) => e.summary), { timeout: 20_000 }).toEqual(['Sessão — Maria'])
  const [written] = await events(office)
  expect(new Date(written.start).getTime()).toBe(new Date(`${date}T10:00:00-03:00`).getTime())
  expect(new Date(written.end).getTime()).toBe(new Date(`${date}T11:00:00-03:00`).getTime())
  expect(written.zone).toBe('America/Sao_Paulo')
  expect((await events(account)).map((e) => e.summary)).toEqual(['Dentista secreto'])
  await page.waitForTimeout(4_000) // another round of the write-back: still one event
  expect(await events(office)).toHaveLength(1)

  // The owner removes Agendei's access in their Google account: the next write is refused, and the card says so.
  expect((await request.post(`${gcal}/_fake/revoke`)).status()).toBe(204)
  const r = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: H,
    data: { professionalId: s.professional, serviceId: s.service, date, time: '16:00', clientName: 'Joana Prado', clientPhone: '11977776666' },
  })
  expect(r.status()).toBe(201)
  await page.goto('/profile')
  await expect(async () => {
    await page.reload()
    await expect(card.getByText(/^O Google recusou o acesso à agenda: conecte de novo\./)).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 30_000 })
  await expect(card.getByText(/^Não conseguimos gravar na sua agenda às \d\d:\d\d: o Google recusou o acesso à agenda: conecte de novo\.$/)).toBeVisible()
  await expect(card.getByRole('button', { name: 'Conectar Google Agenda de novo — Ana Lima' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
  expect((await events(office)).map((e) => e.summary)).toEqual(['Sessão — Maria'])

  // Nothing Agendei sent was refused by the fake as unlike Google's documentation.
  expect(await (await request.get(`${gcal}/_fake/problems`)).json()).toEqual([])
})

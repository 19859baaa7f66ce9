import { expect, test } from '@playwright/test'
import { apiOwner, H, login, uniqueEmail, waitForMail } from './helpers'

// Issue 29 on a 360 px phone: a service with a R$ 30,00 deposit → the client
// books → the card shows the Pix QR code and its copy-and-paste text → the
// owner taps "Sinal recebido" → the client's confirmation arrives; a second
// booking left unpaid is released at its deadline and its time is offered
// again. The server runs with AGENDEI_DEPOSIT_MINUTE=1s (playwright.config.ts),
// so the policy's shortest hold, 10 minutes, ends in 10 seconds.

test.use({ viewport: { width: 360, height: 740 } })

function inSaoPaulo(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms))
}

test('a Pix deposit holds the time, the owner confirms it, and an unpaid one is released at its deadline', async ({ page, context, request }) => {
  test.setTimeout(120_000)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const username = `sinal${Date.now()}`
  const ownerEmail = uniqueEmail('sinal')
  const s = await apiOwner(request, { name: 'Dona Bia', business: 'Estúdio Bia', area: 'Estética', username, email: ownerEmail, professional: 'Bia', priceCents: 15000 })
  expect((await request.put('/api/pix', { headers: s.auth, data: { keyType: 'cpf', key: '529.982.247-25', name: 'Beatriz Souza', city: 'São Paulo' } })).status()).toBe(200)
  const policy = (holdMinutes: number) => ({ kind: 'fixed', value: 3000, holdMinutes, keepOnLateCancel: true, keepOnNoShow: true })
  const setPolicy = async (holdMinutes: number) =>
    expect(
      (await request.put(`/api/services/${s.service}`, { headers: s.auth, data: { name: 'Sessão', duration: 60, priceCents: 15000, deposit: policy(holdMinutes) } })).status(),
    ).toBe(200)
  await setPolicy(1440) // 24 "minutes" of a second each: long enough for the owner to confirm
  const date = inSaoPaulo(Date.now() + 2 * 864e5)

  // The client sees the policy before booking, then books.
  const client = uniqueEmail('cliente')
  await page.goto(`/agende/${username}/form?service=${s.service}&professional=${s.professional}&date=${date}`)
  await expect(page.getByText('Sinal de R$ 30,00 via Pix para confirmar.', { exact: false }).first()).toBeVisible()
  await page.getByLabel('Nome completo *').fill('Maria Pix')
  await page.getByLabel('E-mail').fill(client)
  await page.getByLabel('Telefone *').fill('(11) 98888-7777')
  await page.getByLabel('Horário', { exact: true }).selectOption('10:00')
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click()

  // The card: reserved, the QR code, the copy-and-paste text with its copy button, the amount, the receiver and the deadline.
  await expect(page.getByRole('heading', { name: 'Aguardando sinal' })).toBeVisible()
  await expect(page.getByText(/Pague o sinal de R\$ 30,00 via Pix até \d\d:\d\d de \d\d\/\d\d/)).toBeVisible()
  await expect(page.getByText('Recebedor: BEATRIZ SOUZA')).toBeVisible()
  const qr = page.getByRole('img', { name: 'QR Code do Pix' })
  await expect(qr).toBeVisible()
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100)
  const code = page.getByLabel('Pix Copia e Cola')
  await expect(code).toHaveValue(/^000201.*br\.gov\.bcb\.pix011152998224725.*540530\.00.*6304[0-9A-F]{4}$/)
  await page.getByRole('button', { name: 'Copiar código Pix' }).click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.inputValue())
  // The card fits the phone (the toaster's own list, a passing overlay, is left out).
  expect(await page.getByRole('region', { name: 'Aguardando sinal' }).evaluate((e) => Math.max(e.getBoundingClientRect().right, e.scrollWidth))).toBeLessThanOrEqual(360)
  // The e-mail carries the same Pix.
  const pixMail = await waitForMail(client, 'Pix Copia e Cola')
  expect(pixMail).toContain(await code.inputValue())
  expect(pixMail).toContain('pix-qrcode.png')
  // The client keeps their private page open (issue 39 §5): it says the booking awaits its deposit.
  const clientPage = await context.newPage()
  await clientPage.goto(pixMail.match(/\/cancel\/[A-Za-z0-9_-]+/)![0])
  await expect(clientPage.getByRole('status').filter({ hasText: 'Aguardando sinal' })).toBeVisible()

  // The owner, on the phone, taps "Sinal recebido" in "Sinais pendentes".
  await page.context().clearCookies()
  await login(page, ownerEmail, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Sinais pendentes' })).toBeVisible()
  await expect(page.getByText(/R\$ 30,00 · resta \d+ min/)).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  // The agenda marks the booking as awaiting its deposit in words, not colour alone, and shows the deposit's mark on the phone (issue 39 §5).
  const agendaBlock = () => page.getByRole('button', { name: /^10:00 Maria Pix,/ })
  await page.goto(`/agenda?d=${date}`)
  await expect(agendaBlock()).toHaveAccessibleName(/, Aguardando sinal, Sinal pendente/)
  await expect(agendaBlock().getByText('Aguardando sinal')).toBeVisible()
  await expect(agendaBlock().locator('[data-deposit-mark="pending"]')).toBeVisible()
  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'Sinal recebido de Maria Pix' }).click()
  await expect(page.getByText('Agendamento de Maria Pix confirmado; enviamos a confirmação.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Sinais pendentes' })).toHaveCount(0)
  await page.goto(`/agenda?d=${date}`)
  await expect(agendaBlock()).toHaveAccessibleName(/, Sinal pago/)
  await expect(agendaBlock()).not.toHaveAccessibleName(/Aguardando sinal/)
  // The client's open page turns by itself (it asks again every 15 s while the Pix is due).
  await expect(clientPage.getByText('Sinal recebido — agendamento confirmado')).toBeVisible({ timeout: 30_000 })
  await clientPage.close()
  // The client's confirmation arrives.
  const confirmation = await waitForMail(client, 'agendamento.ics')
  expect(confirmation).toContain('confirmado')

  // A second booking, left unpaid, is released at its deadline (10 s) and its time offered again.
  await setPolicy(10)
  const times = async () => (await (await request.get(`/api/public/profiles/${username}/times?date=${date}&professional=${s.professional}&service=${s.service}`)).json()).times as string[]
  const second = uniqueEmail('segunda')
  const r = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.29.1.1' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '11:00', clientName: 'Sara Sem Pix', clientEmail: second },
  })
  expect(r.status()).toBe(201)
  expect((await r.json()).deposit.state).toBe('pending')
  expect(await times()).not.toContain('11:00')
  await expect.poll(times, { timeout: 30_000 }).toContain('11:00')
  expect(await times()).not.toContain('10:00') // the paid one still holds
  await waitForMail(second, 'foi liberado')
})

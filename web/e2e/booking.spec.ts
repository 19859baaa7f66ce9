import { expect, test, type APIRequestContext } from '@playwright/test'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { login, uniqueEmail, waitForMail, apiSignup } from './helpers'

const H = { 'X-Agendei-Client': 'e2e' }

/** An owner set up through the API: open every day 08:00–20:00, one 60-minute service, one professional. */
async function shop(request: APIRequestContext, username: string, ownerEmail: string) {
  const signup = await apiSignup(request, { name: 'Ana', email: ownerEmail, password: 'segredo1', recoveryKeyword: 'gato' })
  expect(signup.status()).toBe(201)
  const auth = { ...H, Authorization: `Bearer ${(await signup.json()).accessToken}` }
  const days = Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, enabled: true, start: '08:00', end: '20:00' }))
  expect(
    (
      await request.post('/api/onboarding', {
        headers: auth,
        data: { name: 'Clínica Ana', area: 'Psicologia', publicUsername: username, services: [{ name: 'Sessão de terapia', duration: 60, priceCents: 18000 }], days },
      })
    ).status(),
  ).toBe(200)
  const pro = await (await request.post('/api/professionals', { headers: auth, data: { name: 'Dra. Ana Souza', specialization: 'Psicóloga' } })).json()
  const services = await (await request.get('/api/services', { headers: auth })).json()
  return { professional: pro.id as string, service: services[0].id as string }
}

/** The text/calendar part of a message (waitForMail has already undone quoted-printable). */
function calendarPart(mail: string): string {
  const start = mail.search(/Content-Type: text\/calendar/i)
  expect(start).toBeGreaterThan(-1)
  const part = mail.slice(start)
  const body = part.split(/\r?\n\r?\n/).slice(1).join('\n\n').split(/\r?\n--/)[0]
  // The part is base64 or (already undone) quoted-printable: plain text has the header line.
  return body.includes('BEGIN:VCALENDAR') ? body : Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
}

function tomorrowInSaoPaulo(): string {
  const now = new Date(Date.now() + 24 * 3600 * 1000)
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

test.use({ viewport: { width: 360, height: 740 } })

test('a client books on a phone, the slot disappears for the next client, the e-mail has an .ics and the cancel link frees the slot', async ({ page, request, browser }) => {
  const username = `agenda${Date.now()}`
  const { professional, service } = await shop(request, username, uniqueEmail('dona'))
  const date = tomorrowInSaoPaulo()
  const url = `/agende/${username}/form?service=${service}&professional=${professional}&date=${date}`

  // From the public profile, the service links to the form with the service chosen.
  await page.goto(`/agende/${username}`)
  await page.getByRole('link', { name: /Sessão de terapia/ }).click()
  await expect(page).toHaveURL(new RegExp(`/agende/${username}/form\\?service=${service}`))

  await page.goto(url) // state lives in the URL: this reproduces the page
  const time = page.getByLabel('Horário', { exact: true })
  await expect(time).toBeVisible()
  const options = await time.locator('option').allTextContents()
  expect(options).toContain('10:00')
  await time.selectOption('10:00')
  await page.getByLabel('Nome completo *').fill('Maria Silva')
  await page.getByLabel('Telefone *').fill('(11) 98888-7777')
  const clientEmail = uniqueEmail('maria')
  await page.getByLabel('E-mail').fill(clientEmail)
  await expect(page.getByText('R$ 180,00').last()).toBeVisible() // summary
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click()
  await expect(page.getByRole('heading', { name: 'Agendamento confirmado!' })).toBeVisible()
  await expect(page.getByText('Dra. Ana Souza')).toBeVisible()
  // The card offers the event to Google Agenda and as a calendar file.
  await expect(page.getByRole('link', { name: 'Adicionar ao Google Agenda' })).toHaveAttribute('href', /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE.*dates=\d{8}T\d{6}Z%2F\d{8}T\d{6}Z/)
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Baixar convite (.ics)' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('agendamento.ics')
  const invite = (await (await file.createReadStream()).toArray()).join('')
  // It is the server's invite (the e-mail's file): CRLF lines, the owner's zone.
  expect(invite).toContain('BEGIN:VEVENT\r\n')
  expect(invite).toContain(`DTSTART;TZID=America/Sao_Paulo:${date.replaceAll('-', '')}T100000\r\n`)
  const uid = invite.match(/UID:\S+@agendei/)?.[0]
  expect(uid).toBeTruthy()

  // The next client no longer sees 10:00 (nor 09:30, which would overlap the 60-minute session).
  const next = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 360, height: 740 } })
  const other = await next.newPage()
  await other.goto(url)
  await expect(other.getByLabel('Horário', { exact: true })).toBeVisible()
  let left = await other.getByLabel('Horário', { exact: true }).locator('option').allTextContents()
  expect(left).not.toContain('10:00')
  expect(left).not.toContain('09:30')
  expect(left).toContain('11:00')

  // The confirmation e-mail carries a valid calendar invite and the private cancel link.
  const mail = await waitForMail(clientEmail, 'Agendamento confirmado')
  expect(mail).toContain('text/calendar')
  const ics = calendarPart(mail)
  expect(ics).toContain('BEGIN:VCALENDAR')
  expect(ics).toContain(`DTSTART;TZID=America/Sao_Paulo:${date.replaceAll('-', '')}T100000`)
  expect(ics).toContain('END:VCALENDAR')
  expect(ics).toContain(uid!) // the card's download and the e-mail's invite are one event
  const cancel = mail.match(/https?:\/\/[^\s"<>]+\/cancel\/[A-Za-z0-9_-]+/)
  expect(cancel).not.toBeNull()

  await page.goto(cancel![0])
  await page.getByRole('button', { name: 'Cancelar agendamento' }).click()
  await page.getByRole('alertdialog', { name: 'Cancelar este agendamento?' }).getByRole('button', { name: 'Cancelar agendamento' }).click()
  await expect(page.getByText('Agendamento cancelado').first()).toBeVisible()

  await other.reload()
  await expect(other.getByLabel('Horário', { exact: true })).toBeVisible()
  left = await other.getByLabel('Horário', { exact: true }).locator('option').allTextContents()
  expect(left).toContain('10:00')
  await next.close()
})

test('a slot taken meanwhile shows the conflict alert and reloads the times', async ({ page, request }) => {
  const username = `conflito${Date.now()}`
  const { professional, service } = await shop(request, username, uniqueEmail('dona2'))
  const date = tomorrowInSaoPaulo()
  await page.goto(`/agende/${username}/form?service=${service}&professional=${professional}&date=${date}`)
  await page.getByLabel('Horário', { exact: true }).selectOption('15:00')
  await page.getByLabel('Nome completo *').fill('João')
  await page.getByLabel('Telefone *').fill('11977776666')
  // Someone else books 15:00 first.
  const r = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: H,
    data: { professionalId: professional, serviceId: service, date, time: '15:00', clientName: 'Outra pessoa', clientPhone: '11955554444' },
  })
  expect(r.status()).toBe(201)
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click()
  await expect(page.getByText('Horário não disponível')).toBeVisible()
  await expect(page.getByText('Este profissional já possui agendamento neste horário. Por favor, escolha outro horário.')).toBeVisible()
  await expect(page.getByLabel('Horário', { exact: true })).toHaveValue('')
  expect(await page.getByLabel('Horário', { exact: true }).locator('option').allTextContents()).not.toContain('15:00')
})

test('the booking widget, pasted from the profile into a page of another origin, shows the form and its height follows the form', async ({ browser, page, request }) => {
  const username = `widget${Date.now()}`
  const email = uniqueEmail('widget')
  await shop(request, username, email)
  // The owner copies the code from the profile page.
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  const code = await page.getByLabel('Código do widget').inputValue()
  expect(code).toContain(`/embed/${username}`)
  const site = `<!doctype html><html><head><meta charset="utf-8"><title>Site da clínica</title></head><body><h1>Clínica Ana</h1>${code}</body></html>`
  const server = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(site)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  try {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 } })
    const visitor = await ctx.newPage()
    await visitor.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    const frame = visitor.frameLocator(`#agendei-${username}`)
    await expect(frame.getByLabel('Nome completo *')).toBeVisible()
    // The page around it sets the iframe's height from the form's.
    await expect.poll(async () => visitor.locator(`#agendei-${username}`).evaluate((f) => parseInt((f as HTMLIFrameElement).style.height || '0', 10))).toBeGreaterThan(700)
    await expect(frame.getByText('Sessão de terapia').first()).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Confirmar agendamento' })).toBeVisible()
    // The owner's own pages still refuse to be framed.
    const framed = await request.get('/dashboard')
    expect(framed.headers()['x-frame-options']).toBe('DENY')
    await ctx.close()
  } finally {
    server.close()
  }
})

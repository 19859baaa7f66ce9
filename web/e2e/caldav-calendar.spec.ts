import { expect, test } from '@playwright/test'
import { apiOwner, H, inSaoPaulo, login, uniqueEmail } from './helpers'

// Radicale, started by playwright.config.ts's webServer list with one user and an app password.
const radicale = process.env.E2E_RADICALE_URL ?? ''
const user = process.env.E2E_RADICALE_USER ?? ''
const password = process.env.E2E_RADICALE_PASSWORD ?? ''
const basic = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

/** One CalDAV request as the owner's own calendar app makes it. */
async function dav(method: string, path: string, body?: string, type?: string) {
  const res = await fetch(radicale + path, { method, body, headers: { Authorization: basic, ...(type ? { 'Content-Type': type } : {}) } })
  return { status: res.status, text: await res.text() }
}

/** A calendar of the user (MKCALENDAR, RFC 4791 §5.3.1) by its path segment and display name. */
async function calendar(segment: string, name: string) {
  const path = `/${user}/${segment}/`
  const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>${name}</D:displayname></D:prop></D:set></C:mkcalendar>`
  expect((await dav('MKCALENDAR', path, body, 'application/xml')).status).toBe(201)
  return path
}

// A phone's browser, as the phone sweep has it: the page's meta viewport counts.
test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true })

test('a CalDAV account: its event closes the time on the public page, a public booking appears in the chosen calendar and a cancellation takes it out', async ({ page, request }) => {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`
  const username = `caldav${stamp}`
  const email = uniqueEmail('caldav')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Consultório Lia', area: 'Psicologia', username, email, professional: 'Ana Lima', priceCents: 15000 })
  const date = inSaoPaulo(Date.now() + 3 * 864e5)
  const times = async () =>
    (await (await request.get(`/api/public/profiles/${username}/times?date=${date}&professional=${s.professional}&service=${s.service}`, { headers: H })).json()).times as string[]
  expect(await times()).toContain('10:00')

  // The owner's calendars on the server: a personal one (busy) and one to receive Agendei's appointments.
  const personal = await calendar(`pessoal-${stamp}`, `Pessoal ${stamp}`)
  const work = await calendar(`consultorio-${stamp}`, `Consultório ${stamp}`)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  const card = page.getByRole('list', { name: 'Contas CalDAV' })
  await card.getByRole('button', { name: 'Conectar CalDAV — Ana Lima' }).click()
  const form = page.getByRole('form', { name: 'Conta CalDAV — Ana Lima' })
  await form.getByLabel('Endereço do servidor CalDAV').fill(`${radicale}/`)
  await form.getByLabel('Usuário').fill(user)
  await form.getByLabel('Senha de app').fill(password)
  await form.getByRole('button', { name: 'Buscar agendas' }).click()
  await form.getByRole('checkbox', { name: `Pessoal ${stamp}` }).check()
  await form.getByLabel('Agenda que recebe os agendamentos do Agendei').selectOption({ label: `Consultório ${stamp}` })
  // The card and its form fit a 360 px phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

  // The dentist, put into the personal calendar by the owner's own calendar app: 10:00–11:00 in São Paulo.
  const d = date.replaceAll('-', '')
  const ics = [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Apple Inc.//iOS 18.0//EN',
    'BEGIN:VEVENT', `UID:dentista-${stamp}@icloud.com`, 'DTSTAMP:20261120T120000Z', `DTSTART;TZID=America/Sao_Paulo:${d}T100000`, `DTEND;TZID=America/Sao_Paulo:${d}T110000`,
    'SUMMARY:Dentista secreto', 'END:VEVENT', 'END:VCALENDAR', '',
  ].join('\r\n')
  expect((await dav('PUT', `${personal}dentista-${stamp}.ics`, ics, 'text/calendar; charset=utf-8')).status).toBe(201)

  await form.getByRole('button', { name: 'Salvar conta' }).click()
  // Read at once, in the background: the row says when, what it found, and that it receives the appointments.
  await expect(card.getByText(/lia em 127\.0\.0\.1 · lida às \d\d:\d\d · 1 compromisso à frente · recebe os agendamentos/)).toBeVisible({ timeout: 20_000 })
  await expect(page.getByText(password)).toHaveCount(0)

  // The public page stops offering the event's time, and only it; its title never reaches the public.
  await expect.poll(times).not.toContain('10:00')
  const after = await times()
  expect(after).toContain('09:00')
  expect(after).toContain('11:00')
  expect(await (await request.get(`/api/public/profiles/${username}`, { headers: H })).text()).not.toContain('Dentista')

  // A client books on the public page: the appointment appears in the chosen calendar, once.
  const booked = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.42.5.1' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '14:00', clientName: 'Clara Souza', clientPhone: '(11) 95555-4242' },
  })
  expect(booked.status()).toBe(201)
  const token = (await booked.json()).token as string
  const written = async () => (await dav('GET', work)).text
  await expect.poll(written, { timeout: 30_000 }).toContain('SUMMARY:Sessão — Clara')
  const cal = await written()
  expect(cal.match(/BEGIN:VEVENT/g)).toHaveLength(1)
  expect(cal).toMatch(new RegExp(`DTSTART(;TZID=America/Sao_Paulo:${d}T140000|:${d}T170000Z)`)) // 14:00 in São Paulo
  expect(cal).not.toContain('Souza') // the client's first name only
  // Nothing of Agendei's is written into the personal calendar.
  expect((await dav('GET', personal)).text.match(/BEGIN:VEVENT/g)).toHaveLength(1)

  // The client cancels: the event leaves the calendar.
  expect((await request.post(`/api/public/bookings/${token}/cancel`, { headers: H })).status()).toBe(200)
  await expect.poll(written, { timeout: 30_000 }).not.toContain('BEGIN:VEVENT')
})

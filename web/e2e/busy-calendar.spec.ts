import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { agendaGrid, apiOwner, H, inSaoPaulo, login, uniqueEmail } from './helpers'

/** A calendar address as Google serves it: one event, 10:00–11:00 in São Paulo, on date; its title never reaches the public. */
function calendarOn(date: string): Promise<{ server: Server; url: string }> {
  const d = date.replaceAll('-', '')
  const ics = [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Google Inc//Google Calendar 70.9054//EN', 'X-WR-TIMEZONE:America/Sao_Paulo',
    'BEGIN:VEVENT', `DTSTART;TZID=America/Sao_Paulo:${d}T100000`, `DTEND;TZID=America/Sao_Paulo:${d}T110000`, 'DTSTAMP:20261120T120000Z',
    'UID:dentista-e2e@google.com', 'SUMMARY:Dentista secreto', 'END:VEVENT', 'END:VCALENDAR', '',
  ].join('\r\n')
  const server = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'text/calendar; charset=UTF-8', ETag: '"e2e-1"' })
    res.end(ics)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/calendar/ical/ana/private-e2e/basic.ics` })))
}

// A phone's browser, as the phone sweep has it: the page's meta viewport counts.
test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true })

test("a professional's calendar address closes its busy time on the public page and shows on the grid as 'Ocupado (agenda pessoal)'", async ({ page, request }) => {
  const username = `pessoal${Date.now()}${Math.floor(Math.random() * 1000)}`
  const email = uniqueEmail('pessoal')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Consultório Lia', area: 'Psicologia', username, email, professional: 'Ana Lima', priceCents: 15000 })
  const date = inSaoPaulo(Date.now() + 3 * 864e5)
  const times = async () =>
    (await (await request.get(`/api/public/profiles/${username}/times?date=${date}&professional=${s.professional}&service=${s.service}`, { headers: H })).json()).times as string[]
  expect(await times()).toContain('10:00')
  const cal = await calendarOn(date)
  try {
    await login(page, email, 'segredo1')
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.goto('/profile')
    const card = page.getByRole('list', { name: 'Agendas pessoais' })
    await card.getByRole('button', { name: 'Conectar agenda — Ana Lima' }).click()
    await page.getByLabel('Endereço iCal da agenda').fill(cal.url)
    // The card and its form fit a 360 px phone (once the page has settled).
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
    await page.getByRole('button', { name: 'Salvar agenda' }).click()
    // Read at once, in the background; the row says when, and shows only the host.
    await expect(card.getByText(/127\.0\.0\.1 · lida às \d\d:\d\d · 1 compromisso à frente/)).toBeVisible({ timeout: 20_000 })
    await expect(page.getByText('private-e2e')).toHaveCount(0)

    // The public page stops offering the event's time, and only it.
    await expect.poll(times).not.toContain('10:00')
    const after = await times()
    expect(after).not.toContain('09:30')
    expect(after).not.toContain('10:30')
    expect(after).toContain('09:00')
    expect(after).toContain('11:00')
    const publicPage = await (await request.get(`/api/public/profiles/${username}`, { headers: H })).text()
    expect(publicPage).not.toContain('Dentista')

    // The owner's grid: 'Ocupado (agenda pessoal)', without the title.
    await page.goto(`/agenda?d=${date}`)
    const busy = agendaGrid(page).getByRole('note', { name: 'Ocupado (agenda pessoal) 10:00–11:00' })
    await expect(busy).toBeVisible()
    await expect(agendaGrid(page)).not.toContainText('Dentista')
  } finally {
    cal.server.close()
  }
})

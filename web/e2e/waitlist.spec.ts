import { expect, test } from '@playwright/test'
import { apiOwner, H, login, uniqueEmail, waitForMail } from './helpers'

// Issue 28, point 3, in Chromium at 360 px: a full day → the client joins the
// waitlist from the booking form → the booked client cancels → the offer
// e-mail arrives → its claim books; a second claim of the same time is told
// it is gone.

function inSaoPaulo(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms))
}

const offerLink = (mail: string) => {
  const m = mail.match(/\/lista-de-espera\/oferta\/([A-Za-z0-9_-]+)/)
  expect(m, 'the offer e-mail carries its claim link').not.toBeNull()
  return m![0]
}

test.use({ viewport: { width: 360, height: 740 } })

test('a full day, the waitlist, a cancellation, the offer e-mail and one claim that books', async ({ page, request }) => {
  const username = `espera${Date.now()}`
  const ownerEmail = uniqueEmail('espera')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Clínica Lia', area: 'Psicologia', username, email: ownerEmail, professional: 'Lia', priceCents: 15000 })
  // Open 09:00–11:00 every day: two one-hour sessions fill a day.
  const days = Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, enabled: true, start: '09:00', end: '11:00' }))
  expect((await request.put('/api/availability', { headers: s.auth, data: { days } })).status()).toBe(200)
  const date = inSaoPaulo(Date.now() + 2 * 864e5)
  const tokens: string[] = []
  for (const [i, time] of ['09:00', '10:00'].entries()) {
    const r = await request.post(`/api/public/profiles/${username}/bookings`, {
      headers: { ...H, 'X-Forwarded-For': `10.28.3.${i + 1}` },
      data: { professionalId: s.professional, serviceId: s.service, date, time, clientName: `Cliente ${time}`, clientPhone: `(11) 9555${i}-0000` },
    })
    expect(r.status()).toBe(201)
    tokens.push((await r.json()).token)
  }

  // The client types her name and e-mail, finds the day "lotado" on the calendar (not closed like a
  // day off: issue 39, point 12), taps it and joins the list for it with what she typed kept.
  const first = uniqueEmail('primeira')
  await page.goto(`/booking?username=${username}&service=${s.service}&professional=${s.professional}`)
  await page.getByLabel('Nome completo *').fill('Paula Reis')
  await page.getByLabel('E-mail *').fill(first)
  if (date.slice(0, 7) !== inSaoPaulo(Date.now()).slice(0, 7)) await page.getByRole('button', { name: 'Próximo mês' }).click()
  const full = page.getByRole('button', { name: `Dia ${Number(date.slice(8))} lotado` })
  await expect(full).toBeEnabled()
  await full.click()
  await expect(page.getByText('Dia lotado')).toBeVisible()
  await page.getByRole('link', { name: 'Entrar na lista de espera' }).first().click()
  await expect(page.getByRole('heading', { name: 'Entrar na lista de espera' })).toBeVisible()
  await expect(page.getByLabel('Nome completo *')).toHaveValue('Paula Reis')
  await expect(page.getByLabel('E-mail')).toHaveValue(first)
  expect(page.url()).not.toContain('Paula')
  await expect(page.getByLabel('A partir de *')).toHaveValue(date)
  await page.getByLabel('Manhã (até 12h)').check()
  await page.getByRole('button', { name: 'Entrar na lista de espera' }).click()
  await expect(page.getByText('Você está na lista de espera')).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // A second client joins after her.
  const second = uniqueEmail('segunda')
  const join = await request.post(`/api/public/profiles/${username}/waitlist`, {
    headers: { ...H, 'X-Forwarded-For': '10.28.3.9' },
    data: { serviceId: s.service, professionalId: 'any', firstDate: date, lastDate: date, partOfDay: 'qualquer', clientName: 'Sara Lima', clientEmail: second },
  })
  expect(join.status()).toBe(201)

  // The 10:00 client cancels by their link: both waiting clients are offered 10:00.
  expect((await request.post(`/api/public/bookings/${tokens[1]}/cancel`, { headers: H })).status()).toBe(200)
  const mine = offerLink(await waitForMail(first, '/lista-de-espera/oferta/'))
  const hers = offerLink(await waitForMail(second, '/lista-de-espera/oferta/'))

  await page.goto(mine)
  await expect(page.getByRole('heading', { name: 'Vagou um horário' })).toBeVisible()
  await expect(page.getByText('10:00', { exact: true })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.getByRole('button', { name: 'Quero este horário' }).click()
  await expect(page.getByText('Horário confirmado!')).toBeVisible()

  // The second claim of the same time is told it is gone, on the page and by the API.
  await page.goto(hers)
  await expect(page.getByText('Esse horário já foi preenchido. Você continua na lista de espera.')).toBeVisible()
  const late = await request.post(`/api/public${hers.replace('/lista-de-espera/oferta/', '/waitlist-offers/')}/claim`, { headers: H })
  expect(late.status()).toBe(409)
  expect((await late.json()).error.message).toMatch(/^Esse horário já foi preenchido\./)

  // Exactly one appointment holds 10:00, the claimant's.
  const list = await (await request.get(`/api/appointments?from=${date}&to=${date}`, { headers: s.auth })).json()
  const at10 = list.appointments.filter((a: { time: string; status: string }) => a.time === '10:00' && a.status === 'confirmed')
  expect(at10.map((a: { clientName: string }) => a.clientName)).toEqual(['Paula Reis'])

  // The owner's agenda shows the day's waitlist: the client still waiting, with the time offered to her.
  await login(page, ownerEmail, 'segredo1')
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto(`/agenda?d=${date}`)
  const panel = page.getByRole('region', { name: /Lista de espera/ })
  await expect(panel.getByText('1. Sara Lima')).toBeVisible()
  await expect(panel.getByText(/Oferecido: .* às 10:00/)).toBeVisible()
  await expect(panel.getByRole('button', { name: 'Oferecer horário' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

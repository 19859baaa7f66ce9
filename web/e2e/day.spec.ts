import { expect, test, type APIRequestContext } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { apiOwner, apiSignup, gridAppointment, gridFree, H, login, uniqueEmail } from './helpers'

async function owner(request: APIRequestContext, username: string, email: string) {
  return apiOwner(request, { name: 'Dona Clara', business: 'Clínica Clara', area: 'Fisioterapia', username, email, professional: 'Clara', priceCents: 12000 })
}

const tomorrow = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + 864e5))

test('the owner runs the day: agenda views, cancelling frees the slot, CSV export, and another owner never sees it', async ({ page, request, browser }) => {
  const username = `clara${Date.now()}`
  const email = uniqueEmail('clara')
  const s = await owner(request, username, email)
  const date = tomorrow()
  const times = ['09:00', '10:00', '11:00', '12:00']
  for (const [i, time] of times.entries()) {
    const r = await request.post(`/api/public/profiles/${username}/bookings`, {
      headers: { ...H, 'X-Forwarded-For': `10.5.5.${i + 1}` },
      data: { professionalId: s.professional, serviceId: s.service, date, time, clientName: `Cliente ${'ABCD'[i]}`, clientPhone: `1198888000${i}`, clientEmail: `c${i}@example.com` },
    })
    expect(r.status()).toBe(201)
  }

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.getByRole('link', { name: 'Agenda', exact: true }).first().click()
  await expect(page.getByRole('heading', { name: 'Agenda', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Próximo' }).click()

  // Day view: the 60-minute 09:00 booking is one block that takes 09:00 and 09:30; 13:00 is free.
  await expect(gridAppointment(page, '09:00', 'Cliente A')).toBeVisible()
  await expect(gridFree(page, '09:00')).toHaveCount(0)
  await expect(gridFree(page, '09:30')).toHaveCount(0)
  await expect(gridFree(page, '13:00')).toBeVisible()

  // Search ignores case, and narrows without hiding: the others are dimmed, their times stay taken.
  await page.getByLabel('Buscar cliente').fill('cliente c')
  await expect(gridAppointment(page, '09:00', 'Cliente A')).toHaveAttribute('aria-label', /fora do filtro/)
  await expect(gridAppointment(page, '11:00', 'Cliente C')).not.toHaveAttribute('aria-label', /fora do filtro/)
  await expect(gridFree(page, '09:00')).toHaveCount(0)
  await expect(page).toHaveURL(/q=cliente/)
  await page.getByLabel('Buscar cliente').fill('')

  // Week view: a time grid of the professional, seven dates; month view: each day's count.
  await page.getByRole('button', { name: 'Semana', exact: true }).click()
  await expect(page.getByTestId('agenda-column')).toHaveCount(7)
  await expect(gridAppointment(page, '12:00', 'Cliente D')).toBeVisible()
  await page.getByRole('button', { name: 'Mês', exact: true }).click()
  await expect(page.getByTestId(`month-day-${date}`)).toContainText('4')

  // Cancel 09:00 from the details dialog: the public slot frees at once.
  await page.getByRole('button', { name: 'Dia', exact: true }).click()
  await gridAppointment(page, '09:00', 'Cliente A').click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByText('Cliente A')).toBeVisible()
  await expect(dialog.getByRole('link', { name: /\(11\) 98888-0000/ })).toHaveAttribute('href', 'https://wa.me/5511988880000')
  await dialog.getByRole('button', { name: 'Cancelar agendamento' }).click()
  // One question, in the app's own dialog; the safe answer has the focus.
  const question = page.getByRole('alertdialog', { name: 'Cancelar este agendamento?' })
  await expect(question.getByRole('button', { name: 'Manter agendamento' })).toBeFocused()
  await question.getByRole('button', { name: 'Cancelar agendamento' }).click()
  await expect(question).toBeHidden()
  await expect(dialog.getByText('Cancelado')).toBeVisible()
  const free = await (await request.get(`/api/public/profiles/${username}/times?date=${date}&professional=${s.professional}&service=${s.service}`)).json()
  expect(free.times).toContain('09:00')

  // A client takes the freed 09:00; re-confirming the cancelled one is refused with the reason.
  const taken = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.5.5.9' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '09:00', clientName: 'Cliente E', clientPhone: '11988880009' },
  })
  expect(taken.status()).toBe(201)
  await dialog.getByRole('button', { name: 'Confirmar' }).click()
  await expect(page.getByText('Não é possível confirmar: o profissional já tem outro agendamento neste horário.')).toBeVisible()
  await expect(dialog.getByText('Cancelado')).toBeVisible()
  await page.keyboard.press('Escape')

  // Clients: CSV download for Brazilian spreadsheets.
  await page.getByRole('link', { name: 'Clientes', exact: true }).first().click()
  await expect(page.getByText('5 clientes')).toBeVisible()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()])
  expect(download.suggestedFilename()).toMatch(/^clientes-agendei-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = readFileSync((await download.path())!, 'utf8')
  expect(csv.charCodeAt(0)).toBe(0xfeff)
  expect(csv).toContain('Nome;Email;Telefone;Agendamentos;Último Agendamento;Receita Total;Atendimentos;Último atendimento;Receita realizada;Agendados;Próximo agendamento;Não compareceu')

  // Another owner's appointment id never renders: back to /agenda with a toast.
  const ids = await page.evaluate(async () => {
    const r = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'X-Agendei-Client': 'e2e' } })
    const { accessToken } = await r.json()
    const from = new Date().toISOString().slice(0, 10)
    const to = new Date(Date.now() + 5 * 864e5).toISOString().slice(0, 10)
    const list = await (await fetch(`/api/appointments?from=${from}&to=${to}`, { headers: { Authorization: `Bearer ${accessToken}` } })).json()
    return list.appointments.map((a: { id: string }) => a.id) as string[]
  })
  expect(ids.length).toBeGreaterThan(0)
  const intruderEmail = uniqueEmail('intrusa')
  await apiSignup(request, { name: 'Intrusa', email: intruderEmail, password: 'segredo1', recoveryKeyword: 'rato' })
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const p2 = await other.newPage()
  await login(p2, intruderEmail, 'segredo1')
  await expect(p2).toHaveURL(/\/dashboard$/)
  await p2.goto(`/appointment/${ids[0]}`)
  await expect(p2).toHaveURL(/\/agenda$/)
  await expect(p2.getByText('Agendamento não encontrado')).toBeVisible()
  await expect(p2.getByText('Cliente A')).toHaveCount(0)
  await other.close()
})

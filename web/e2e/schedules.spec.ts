import { expect, test, type Page } from '@playwright/test'
import { H, login, uniqueEmail, apiSignup } from './helpers'

const weekdayNames = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado']
const monthNames = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro']

/** Today in São Paulo, as YYYY-MM-DD. */
function todayInSaoPaulo(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
}
const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T12:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}
const weekdayOf = (iso: string) => new Date(`${iso}T12:00:00Z`).getUTCDay()
const monthTitle = (iso: string) => {
  const [y, m] = iso.split('-').map(Number)
  const name = monthNames[m - 1]
  return `${name[0].toUpperCase()}${name.slice(1)} de ${y}`
}

/** Moves the public calendar to the month of iso (forward only). */
async function calendarTo(page: Page, iso: string) {
  for (let i = 0; i < 14; i++) {
    if ((await page.getByText(monthTitle(iso), { exact: true }).count()) > 0) return
    await page.getByRole('button', { name: 'Próximo mês' }).click()
  }
  throw new Error(`calendar never reached ${iso}`)
}

const dayButton = (page: Page, iso: string) => page.getByRole('group', { name: 'Calendário' }).getByRole('button', { name: `Dia ${Number(iso.slice(8))}`, exact: true })

test.use({ viewport: { width: 360, height: 740 } })

test('an owner sets a lunch break, a professional’s own Friday, a vacation and keeps Carnaval closed; the public form and the agenda follow', async ({ page, request }) => {
  test.setTimeout(120_000)
  const email = uniqueEmail('agenda')
  const username = `horarios${Date.now()}`
  const signup = await apiSignup(request, { name: 'Clara', email, password: 'segredo1', recoveryKeyword: 'gato' })
  const auth = { ...H, Authorization: `Bearer ${(await signup.json()).accessToken}` }
  const days = Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, enabled: d >= 1 && d <= 5, start: '09:00', end: '18:00' }))
  expect(
    (
      await request.post('/api/onboarding', {
        headers: auth,
        data: { name: 'Clínica Clara', area: 'Fisioterapia', publicUsername: username, services: [{ name: 'Sessão', duration: 60, priceCents: 15000 }], days },
      })
    ).status(),
  ).toBe(200)
  for (const [name, specialization] of [
    ['Dra. Ana', 'Fisioterapeuta'],
    ['Dr. Bruno', 'Fisioterapeuta'],
  ]) {
    expect((await request.post('/api/professionals', { headers: auth, data: { name, specialization } })).status()).toBe(201)
  }
  const today = todayInSaoPaulo()
  let monday = addDays(today, 2)
  while (weekdayOf(monday) !== 1) monday = addDays(monday, 1)
  const vacation = addDays(monday, 2) // a Wednesday
  const friday = addDays(monday, 4)
  const year = Number(today.slice(0, 4))
  let carnaval = ''
  for (const y of [year, year + 1]) {
    const list = await (await request.get(`/api/holidays?year=${y}`, { headers: auth })).json()
    const c = list.holidays.find((h: { key: string; date: string }) => h.key === 'carnaval-segunda' && h.date > today)
    if (c && !carnaval) carnaval = c.date
  }
  expect(carnaval).not.toBe('')

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)

  // The practice's week: a lunch break from 12:00 to 13:00, Monday to Friday.
  await page.goto('/configure-hours')
  for (let d = 1; d <= 5; d++) {
    const name = weekdayNames[d]
    await page.getByLabel(`Fim (${name})`, { exact: true }).fill('12:00')
    await page.getByRole('button', { name: `Adicionar período (${name})` }).click()
    await page.getByLabel(`Início do período 2 (${name})`).fill('13:00')
    await page.getByLabel(`Fim do período 2 (${name})`).fill('18:00')
  }
  // Overlapping windows are refused beside the form, and nothing is lost.
  await page.getByLabel('Início do período 2 (Segunda-feira)').fill('11:00')
  await page.getByRole('button', { name: 'Salvar horários' }).click()
  await expect(page.getByText('Os períodos de Segunda-feira se sobrepõem: cada um deve começar depois que o anterior termina.').first()).toBeVisible()
  await page.getByLabel('Início do período 2 (Segunda-feira)').fill('13:00')
  await page.getByRole('button', { name: 'Salvar horários' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)

  // A year of bookings ahead, so next Carnaval is in reach; Ana's vacation.
  await page.goto('/configure-hours')
  await page.getByLabel('Agendamentos até quantos dias à frente').fill('365')
  await page.getByRole('button', { name: 'Salvar regras' }).click()
  await expect(page.getByText('Regras salvas!')).toBeVisible()
  await page.getByLabel('Quem folga').selectOption({ label: 'Dra. Ana' })
  await page.getByLabel('De', { exact: true }).fill(vacation)
  await page.getByLabel('Motivo (opcional)').fill('Férias')
  await page.getByRole('button', { name: 'Adicionar folga' }).click()
  await expect(page.getByText(/Dra\. Ana · .* · Férias/)).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'Carnaval (segunda-feira)' }).getByRole('checkbox', { name: 'Atender neste dia' })).not.toBeChecked()

  // Bruno works only on Friday afternoons.
  await page.goto('/professionals')
  await page.getByRole('button', { name: 'Horários de Dr. Bruno' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Horários próprios').check()
  for (let d = 1; d <= 4; d++) await dialog.getByRole('checkbox', { name: weekdayNames[d] }).uncheck()
  await dialog.getByRole('button', { name: 'Remover período 2 (Sexta-feira)' }).click()
  await dialog.getByLabel('Início (Sexta-feira)', { exact: true }).fill('14:00')
  await dialog.getByLabel('Fim (Sexta-feira)', { exact: true }).fill('16:00')
  await dialog.getByRole('button', { name: 'Salvar horários' }).click()
  await expect(dialog).toBeHidden()

  // The public form, on a phone.
  const client = await page.context().browser()!.newPage({ viewport: { width: 360, height: 740 } })
  await client.goto(`/agende/${username}/form`)
  await client.getByRole('radio', { name: /Sessão/ }).check()
  const professional = client.getByLabel('Profissional', { exact: true })
  await professional.selectOption({ label: 'Dra. Ana · Fisioterapeuta' })
  await calendarTo(client, monday)
  await dayButton(client, monday).click()
  const time = client.getByLabel('Horário', { exact: true })
  await expect(time).toBeVisible()
  const open = ['09:00', '09:30', '10:00', '10:30', '11:00', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30', '17:00']
  await expect(time.locator('option')).toHaveText(['Selecione um horário', ...open])
  await calendarTo(client, vacation)
  await expect(dayButton(client, vacation)).toBeDisabled()

  await professional.selectOption({ label: 'Dr. Bruno · Fisioterapeuta' })
  await calendarTo(client, friday)
  await dayButton(client, friday).click()
  await expect(time.locator('option')).toHaveText(['Selecione um horário', '14:00', '14:30', '15:00'])
  await expect(dayButton(client, monday)).toBeDisabled()

  await professional.selectOption({ label: 'Dra. Ana · Fisioterapeuta' })
  await calendarTo(client, carnaval)
  await expect(dayButton(client, carnaval)).toBeDisabled()

  // Anyone free: on Monday only Ana works, so she gets the booking.
  await professional.selectOption({ label: 'Qualquer profissional' })
  await client.goto(`/agende/${username}/form?${new URL(client.url()).searchParams.toString().replace(/date=[^&]*/, '')}&date=${monday}`)
  await expect(time).toBeVisible()
  await time.selectOption('10:00')
  await client.getByLabel('Nome completo *').fill('Paula Lima')
  await client.getByLabel('Telefone *').fill('(11) 97777-6666')
  await client.getByRole('button', { name: 'Confirmar agendamento' }).click()
  await expect(client.getByText('Agendamento confirmado!').first()).toBeVisible()
  await expect(client.getByRole('main')).toContainText('Dra. Ana')

  // The agenda's day view labels the break and, on Ana's vacation, the day off.
  await page.goto('/agenda')
  for (let d = today; d < monday; d = addDays(d, 1)) await page.getByRole('button', { name: /Próximo/ }).click()
  await expect(page.getByText('Pausa · até 13:00')).toBeVisible()
  await expect(page.getByText('Paula Lima').first()).toBeVisible()
  // On a phone the filters are in the "Filtros" sheet (issue 39, point 7).
  await page.getByRole('button', { name: 'Filtros', exact: true }).click()
  await page.getByRole('dialog', { name: 'Filtros' }).getByLabel('Profissional', { exact: true }).selectOption({ label: 'Dra. Ana — Fisioterapeuta' })
  await page.getByRole('button', { name: 'Ver agenda' }).click()
  await page.getByRole('button', { name: /Próximo/ }).click()
  await page.getByRole('button', { name: /Próximo/ }).click()
  await expect(page.getByText('Folga: Férias').first()).toBeVisible()
})

import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { agendaGrid, apiOwner, drag, gridAppointment, inSaoPaulo, login, uniqueEmail } from './helpers'

// Issue 39 §7 and §8: on a phone the agenda opens on the grid, its filters folded into one bar; the week says whose week it
// is and keeps "Todos os profissionais" — each date divided by professional on a desktop, one professional at a time on a phone.

const day = 864e5
const plus = (date: string, n: number) => new Date(Date.parse(`${date}T12:00:00Z`) + n * day).toISOString().slice(0, 10)
const ddmm = (date: string) => `${date.slice(8)}/${date.slice(5, 7)}`

/** A clinic of three professionals with appointments spread over next week: Monday one each, then Ana's Tuesday, Bruno's Wednesday, Débora's Friday. */
async function clinic(request: APIRequestContext) {
  const email = uniqueEmail('semana')
  const s = await apiOwner(request, { name: 'Dona Vera', business: 'Clínica Vera', area: 'Fisioterapia', username: `semana${Date.now()}${Math.floor(Math.random() * 1000)}`, email, professional: 'Ana Lima', priceCents: 12000 })
  const pros = [s.professional]
  for (const name of ['Bruno Reis', 'Débora Freitas']) {
    pros.push((await (await request.post('/api/professionals', { headers: s.auth, data: { name, specialization: 'Fisioterapia' } })).json()).id as string)
  }
  const next = inSaoPaulo(Date.now() + 7 * day)
  const monday = plus(next, -((new Date(`${next}T12:00:00Z`).getUTCDay() + 6) % 7))
  const plan: [number, string, string, string][] = [
    [0, monday, '09:00', 'Carla Dias'], [1, monday, '09:00', 'Diego Alves'], [2, monday, '10:00', 'Elisa Prado'],
    [0, plus(monday, 1), '14:00', 'Fábio Nunes'], [1, plus(monday, 2), '11:00', 'Gabi Souza'], [2, plus(monday, 4), '16:00', 'Hugo Melo'],
  ]
  for (const [i, date, time, clientName] of plan) {
    const r = await request.post('/api/appointments', { headers: s.auth, data: { professionalId: pros[i], serviceId: s.service, date, time, clientName, clientPhone: '11988887777' } })
    expect(r.status(), `${clientName}: ${await r.text()}`).toBe(201)
  }
  return { ...s, email, pros, monday, plan }
}

const names = ['Ana Lima', 'Bruno Reis', 'Débora Freitas']

const noOverflow = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

test('on a phone the agenda opens on the grid, the filters in one bar, and the week shows one professional at a time by tabs', async ({ page, request }) => {
  const c = await clinic(request)
  await page.setViewportSize({ width: 360, height: 780 })
  await login(page, c.email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/agenda?d=${c.monday}`)
  await expect(gridAppointment(page, '09:00', 'Carla Dias')).toBeVisible()

  // The grid is the first thing on screen: its top and its first hour row well above the fold, no filter fields over it.
  const grid = (await agendaGrid(page).boundingBox())!
  expect(grid.y).toBeLessThan(780 / 2)
  await expect(page.getByText('08:00', { exact: true })).toBeInViewport()
  await expect(page.getByLabel('Buscar cliente')).toHaveCount(0)
  await noOverflow(page)
  await page.screenshot({ path: '/tmp/views39/phone-day.png' })

  // The filters are one button: a sheet holds search, status and professional, and the button counts what is on.
  await page.getByRole('button', { name: 'Filtros', exact: true }).click()
  const sheet = page.getByRole('dialog', { name: 'Filtros' })
  await sheet.getByLabel('Buscar cliente').fill('carla')
  await expect(page).toHaveURL(/q=carla/)
  await expect(sheet.getByLabel('Profissional')).toHaveValue('')
  await sheet.getByRole('button', { name: 'Ver agenda' }).click()
  await expect(sheet).toBeHidden()
  await expect(page.getByRole('button', { name: 'Filtros, 1 ativo' })).toBeVisible()
  await expect(gridAppointment(page, '09:00', 'Diego Alves')).toHaveAttribute('aria-label', /fora do filtro/)
  await page.getByRole('button', { name: 'Filtros, 1 ativo' }).click()
  await sheet.getByRole('button', { name: 'Limpar filtros' }).click()
  await sheet.getByRole('button', { name: 'Ver agenda' }).click()
  await expect(page.getByRole('button', { name: 'Filtros', exact: true })).toBeVisible()

  // The week of everyone: a tab per professional, the title naming whose week it is; a tab switches without filtering.
  await page.getByRole('button', { name: 'Semana', exact: true }).click()
  const tabs = page.getByRole('tablist', { name: 'Profissional da semana' })
  // In the team's order (the newest first), the first one shown.
  await expect(tabs.getByRole('tab')).toHaveText([...names].reverse())
  await expect(tabs.getByRole('tab', { name: 'Débora Freitas' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^Semana de Débora Freitas · /)
  await expect(page.getByTestId('agenda-column')).toHaveCount(7)
  await expect(gridAppointment(page, '16:00', 'Hugo Melo')).toBeVisible()
  await expect(gridAppointment(page, '11:00', 'Gabi Souza')).toHaveCount(0)
  await tabs.getByRole('tab', { name: 'Bruno Reis' }).click()
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^Semana de Bruno Reis · /)
  await expect(gridAppointment(page, '11:00', 'Gabi Souza')).toBeVisible()
  await expect(gridAppointment(page, '16:00', 'Hugo Melo')).toHaveCount(0)
  expect(new URL(page.url()).searchParams.get('p')).toBeNull()
  await expect(agendaGrid(page)).toBeInViewport()
  await noOverflow(page)
  await page.screenshot({ path: '/tmp/views39/phone-week.png' })
})

test('on a desktop the week keeps "Todos os profissionais" and divides each date by professional; a tap books there, a drag moves', async ({ page, request }) => {
  const c = await clinic(request)
  await page.setViewportSize({ width: 1280, height: 800 })
  await login(page, c.email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/agenda?d=${c.monday}`)
  await expect(gridAppointment(page, '09:00', 'Carla Dias')).toBeVisible()
  await page.getByRole('button', { name: 'Semana', exact: true }).click()

  // "Semana" switches nobody: the picker still says Todos, the title says so, and every professional's appointments are there.
  await expect(page.getByLabel('Profissional', { exact: true })).toHaveValue('')
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^Semana de todos os profissionais · /)
  await expect(page.getByTestId('agenda-column')).toHaveCount(21)
  await expect(page.getByTestId('agenda-group-title')).toHaveCount(7)
  const wd = ['Seg', 'Ter', 'Qua', 'Qui', 'Sex']
  for (const [i, date, time, client] of c.plan) {
    const column = page.getByRole('group', { name: `${names[i]}, ${wd[(Date.parse(date) - Date.parse(c.monday)) / day]} ${ddmm(date)}`, exact: true })
    await expect(column.getByRole('button', { name: new RegExp(`^${time} ${client},`) })).toBeVisible()
  }
  await noOverflow(page)
  await page.screenshot({ path: '/tmp/views39/desktop-week.png' })

  // An appointment opens its details; a free stretch of Débora's Thursday books with her, that date and time.
  await gridAppointment(page, '11:00', 'Gabi Souza').click()
  await expect(page.getByRole('dialog', { name: 'Detalhes do agendamento' })).toContainText('Gabi Souza')
  await page.keyboard.press('Escape')
  const thursday = plus(c.monday, 3)
  await page.getByRole('group', { name: `Débora Freitas, Qui ${ddmm(thursday)}`, exact: true }).getByRole('button', { name: /^DISPONÍVEL 15:00 / }).click()
  const dialog = page.getByRole('dialog', { name: 'Novo agendamento' })
  await expect(dialog.getByLabel('Data *')).toHaveValue(thursday)
  await expect(dialog.getByLabel('Horário *')).toHaveValue('15:00')
  await expect(dialog.getByLabel('Profissional *')).toHaveValue(c.pros[2])
  await page.keyboard.press('Escape')

  // A drag moves an appointment to another professional's column of another date.
  const wednesday = plus(c.monday, 2)
  const gabi = async () => (await (await request.get(`/api/appointments?from=${c.monday}&to=${plus(c.monday, 6)}&q=Gabi`, { headers: c.auth })).json()).appointments[0]
  const before = await gabi()
  await drag(
    page,
    gridAppointment(page, '11:00', 'Gabi Souza'),
    page.getByRole('group', { name: `Ana Lima, Qui ${ddmm(thursday)}`, exact: true }).getByRole('button', { name: /^DISPONÍVEL 13:00 / }),
  )
  await expect(page.getByRole('group', { name: `Ana Lima, Qui ${ddmm(thursday)}`, exact: true }).getByRole('button', { name: /^13:00 Gabi Souza,/ })).toBeVisible()
  await expect(page.getByRole('group', { name: `Bruno Reis, Qua ${ddmm(wednesday)}`, exact: true }).getByRole('button', { name: /Gabi Souza/ })).toHaveCount(0)
  await expect.poll(gabi).toMatchObject({ id: before.id, date: thursday, time: '13:00', professionalId: c.pros[0] })

  // One professional picked: the week is theirs, named in the title, a column per date; back to Todos divides again.
  await page.getByLabel('Profissional', { exact: true }).selectOption({ label: 'Bruno Reis — Fisioterapia' })
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^Semana de Bruno Reis · /)
  await expect(page.getByTestId('agenda-column')).toHaveCount(7)
  await expect(gridAppointment(page, '09:00', 'Diego Alves')).toBeVisible()
  await expect(gridAppointment(page, '09:00', 'Carla Dias')).toHaveCount(0)
  await page.getByLabel('Profissional', { exact: true }).selectOption({ label: 'Todos os profissionais' })
  await expect(page.getByTestId('agenda-column')).toHaveCount(21)
})

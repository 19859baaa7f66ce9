import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test'
import { agendaGrid, apiOwner, drag, gridAppointment, gridFree, inSaoPaulo, login, uniqueEmail } from './helpers'

/** A practice of three professionals with ten appointments at overlapping times on one date. */
async function busyPractice(request: APIRequestContext) {
  const username = `grade${Date.now()}${Math.floor(Math.random() * 1000)}`
  const email = uniqueEmail('grade')
  const s = await apiOwner(request, { name: 'Dona Vera', business: 'Clínica Vera', area: 'Psicologia', username, email, professional: 'Ana Lima', priceCents: 12000 })
  const pros = [s.professional]
  for (const name of ['Bruno Reis', 'Débora Freitas']) {
    pros.push((await (await request.post('/api/professionals', { headers: s.auth, data: { name, specialization: 'Psicologia' } })).json()).id as string)
  }
  const date = inSaoPaulo(Date.now() + 2 * 864e5)
  const plan: [number, string, string][] = [
    [0, '09:00', 'Carla Dias'], [1, '09:00', 'Diego Alves'], [2, '09:00', 'Elisa Prado'],
    [0, '10:00', 'Fábio Nunes'], [1, '10:00', 'Gabi Souza'], [2, '10:00', 'Hugo Melo'],
    [0, '11:00', 'Iara Costa'], [1, '11:00', 'João Pires'], [2, '15:00', 'Karina Luz'], [0, '14:00', 'Lucas Rocha'],
  ]
  for (const [i, time, clientName] of plan) {
    const r = await request.post('/api/appointments', {
      headers: s.auth,
      data: { professionalId: pros[i], serviceId: s.service, date, time, clientName, clientPhone: '11988887777' },
    })
    expect(r.status(), `${clientName}: ${await r.text()}`).toBe(201)
  }
  return { ...s, email, username, pros, date, plan }
}

const noOverflow = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

for (const size of [
  { width: 360, height: 780 },
  { width: 1280, height: 800 },
]) {
  test(`the day grid shows all ten appointments in their professionals' columns, and a tap on a free stretch books it (${size.width} px)`, async ({ page, request }) => {
    const p = await busyPractice(request)
    await page.setViewportSize(size)
    await login(page, p.email, 'segredo1')
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.goto(`/agenda?d=${p.date}`)
    const columns = page.getByTestId('agenda-column')
    await expect(columns).toHaveCount(3)
    const names = ['Ana Lima', 'Bruno Reis', 'Débora Freitas']
    for (const [i, time, client] of p.plan) {
      await expect(page.getByRole('group', { name: names[i] }).getByRole('button', { name: new RegExp(`^${time} ${client},`) })).toHaveCount(1)
    }
    await noOverflow(page)

    // A free stretch of Débora's column: the form comes with her, the date and the time; it lists her free times.
    await page.getByRole('group', { name: 'Débora Freitas' }).getByRole('button', { name: /^DISPONÍVEL 13:00 / }).click()
    const dialog = page.getByRole('dialog', { name: 'Novo agendamento' })
    await expect(dialog.getByLabel('Data *')).toHaveValue(p.date)
    await expect(dialog.getByLabel('Horário *')).toHaveValue('13:00')
    await expect(dialog.getByLabel('Profissional *')).toHaveValue(p.pros[2])
    await dialog.getByLabel('Nome do cliente *').fill('Nova Cliente')
    await dialog.getByLabel('Telefone', { exact: true }).fill('(11) 96666-5555')
    await dialog.getByLabel('Serviço *').selectOption({ label: 'Sessão (60 min)' })
    const free = dialog.getByRole('group', { name: 'Horários livres' })
    await expect(free.getByRole('button', { name: '09:00' })).toHaveCount(0) // Elisa's
    await free.getByRole('button', { name: '16:00' }).click()
    await expect(dialog.getByLabel('Horário *')).toHaveValue('16:00')
    const agendar = dialog.getByRole('button', { name: 'Agendar', exact: true })
    await agendar.scrollIntoViewIfNeeded()
    await agendar.click()
    await expect(dialog).toBeHidden()
    await expect(page.getByRole('group', { name: 'Débora Freitas' }).getByRole('button', { name: /^16:00 Nova Cliente,/ })).toBeVisible()

    // The week keeps everyone (issue 39 §8): on a desktop each date divided by professional; on a phone one professional at a
    // time by tabs, the first of the team's order (the newest) shown first. The month fits the phone.
    await page.getByRole('button', { name: 'Semana', exact: true }).click()
    if (size.width < 640) {
      await expect(page.getByRole('tablist', { name: 'Profissional da semana' }).getByRole('tab', { name: 'Débora Freitas' })).toHaveAttribute('aria-selected', 'true')
      await expect(columns).toHaveCount(7)
    } else {
      await expect(page.getByLabel('Profissional', { exact: true })).toHaveValue('')
      await expect(columns).toHaveCount(21)
    }
    await expect(gridAppointment(page, '09:00', 'Elisa Prado')).toBeVisible()
    await noOverflow(page)
    await page.getByRole('button', { name: 'Mês', exact: true }).click()
    await expect(page.getByTestId(`month-day-${p.date}`)).toHaveAccessibleName(/11 agendamentos/)
    await noOverflow(page)
    // The address keeps the view: a reload shows the same month.
    await page.reload()
    await expect(page.getByTestId(`month-day-${p.date}`)).toHaveAccessibleName(/11 agendamentos/)
  })
}

test('on a desktop an appointment is dragged to another time and column; onto a taken time it is refused and stays', async ({ page, request }) => {
  const p = await busyPractice(request)
  await page.setViewportSize({ width: 1280, height: 800 })
  await login(page, p.email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/agenda?d=${p.date}`)
  const lucas = gridAppointment(page, '14:00', 'Lucas Rocha')
  await expect(lucas).toBeVisible()
  const lucasNow = async () => (await (await request.get(`/api/appointments?from=${p.date}&to=${p.date}&q=Lucas`, { headers: p.auth })).json()).appointments[0]
  const before = await lucasNow()
  // The drop asks the server through the same path as 'Remarcar' (POST /api/appointments/{id}/reschedule).
  const reschedule = (r: Response) => r.request().method() === 'POST' && r.url().endsWith(`/api/appointments/${before.id}/reschedule`)

  // Onto Bruno's 09:00 (Diego's): the server refuses, the reason is said in Portuguese, and the block snaps back.
  const refused = page.waitForResponse(reschedule)
  await drag(page, lucas, page.getByRole('group', { name: 'Bruno Reis' }).getByRole('button', { name: /^09:00 Diego Alves,/ }))
  expect((await refused).status()).toBe(409)
  await expect(page.getByText('Não foi possível remarcar').first()).toBeVisible()
  await expect(page.getByText('Este profissional já possui agendamento neste horário.', { exact: false }).first()).toBeVisible()
  await expect(page.getByRole('group', { name: 'Ana Lima' }).getByRole('button', { name: /^14:00 Lucas Rocha,/ })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Bruno Reis' }).getByRole('button', { name: /Lucas Rocha/ })).toHaveCount(0)
  expect(await lucasNow()).toMatchObject({ time: '14:00', professionalId: p.pros[0] })

  // Onto Bruno's free 13:00: moved there, by the server.
  const moved = page.waitForResponse(reschedule)
  await drag(page, lucas, page.getByRole('group', { name: 'Bruno Reis' }).getByRole('button', { name: /^DISPONÍVEL 13:00 / }))
  expect((await moved).status()).toBe(200)
  await expect(page.getByText('Agendamento remarcado').first()).toBeVisible()
  await expect(page.getByRole('group', { name: 'Bruno Reis' }).getByRole('button', { name: /^13:00 Lucas Rocha,/ })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Ana Lima' }).getByRole('button', { name: /Lucas Rocha/ })).toHaveCount(0)
  expect(await lucasNow()).toMatchObject({ id: before.id, time: '13:00', professionalId: p.pros[1] })
  await expect(agendaGrid(page)).toBeVisible()
  await expect(gridFree(page, '14:00').first()).toBeVisible()
})

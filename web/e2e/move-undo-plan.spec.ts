import { expect, test } from '@playwright/test'
import { apiOwner, drag, gridAppointment, gridFree, H, inSaoPaulo, login, uniqueEmail } from './helpers'

async function practice(request: Parameters<typeof apiOwner>[0], name: string) {
  const username = `${name}${Date.now()}`
  const email = uniqueEmail(name)
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Clínica Lia', area: 'Fisioterapia', username, email, professional: 'Lia', priceCents: 9000 })
  const date = inSaoPaulo(Date.now() + 864e5)
  const booked = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': `10.7.${Date.now() % 200}.1` },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '15:00', clientName: 'Fernanda Vieira', clientPhone: '11988887777' },
  })
  expect(booked.status()).toBe(201)
  const id = (await booked.json()).id as string
  const now = async () => (await (await request.get(`/api/appointments/${id}`, { headers: s.auth })).json()) as { date: string; time: string; status: string }
  return { ...s, email, date, id, now }
}

// Issue 39 §4: a drop moves at once and tells nobody; its toast undoes it
// through the same reschedule, back to where it was.
test('on a desktop a dropped appointment is moved back by the toast’s Desfazer', async ({ page, request }) => {
  const p = await practice(request, 'desfazer')
  await page.setViewportSize({ width: 1280, height: 800 })
  await login(page, p.email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/agenda?d=${p.date}`)
  const reschedule = (r: { request(): { method(): string }; url(): string }) => r.request().method() === 'POST' && r.url().endsWith(`/api/appointments/${p.id}/reschedule`)

  const moved = page.waitForResponse(reschedule)
  await drag(page, gridAppointment(page, '15:00', 'Fernanda Vieira'), gridFree(page, '13:00').first())
  expect((await moved).status()).toBe(200)
  await expect(page.getByText('O cliente ainda não foi avisado.', { exact: false }).first()).toBeVisible()
  await expect(gridAppointment(page, '13:00', 'Fernanda Vieira')).toBeVisible()
  expect(await p.now()).toMatchObject({ time: '13:00' })

  const back = page.waitForResponse(reschedule)
  await page.getByRole('button', { name: 'Desfazer' }).first().click()
  expect((await back).status()).toBe(200)
  await expect(page.getByText('Remarcação desfeita').first()).toBeVisible()
  await expect(gridAppointment(page, '15:00', 'Fernanda Vieira')).toBeVisible()
  expect(await p.now()).toMatchObject({ time: '15:00', status: 'confirmed' })
})

// Issue 39 §1 (leftover): "Remarcar" inside the block's plan moves nothing
// until "Bloquear" — "Voltar" leaves the client where she was — and saved,
// the block and the move are one; the owner reads where she went and that
// nobody could be told automatically, with the rescheduling ready on WhatsApp.
test('on a phone a block’s planned Remarcar moves the client only with the save', async ({ page, request }) => {
  const p = await practice(request, 'planomove')
  await page.setViewportSize({ width: 360, height: 780 })
  await login(page, p.email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/agenda?d=${p.date}`)
  await page.getByRole('button', { name: 'Bloquear horário' }).click()
  const dialog = page.getByRole('dialog', { name: 'Bloquear horário' })
  const planMove = async () => {
    await dialog.getByLabel('Início *').fill('13:00')
    await dialog.getByLabel('Fim *').fill('18:00')
    await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()
    const client = dialog.getByRole('listitem', { name: 'Fernanda Vieira' })
    await client.getByRole('button', { name: 'Remarcar' }).click()
    await client.getByRole('group', { name: 'Horários livres' }).getByRole('button', { name: '10:00' }).click()
    await client.getByRole('button', { name: 'Usar este horário' }).click()
    await expect(client).toContainText('Será remarcado ao salvar')
  }

  await planMove()
  await dialog.getByRole('button', { name: 'Voltar' }).click()
  expect(await p.now()).toMatchObject({ time: '15:00', status: 'confirmed' })
  expect(await (await request.get(`/api/blocks?from=${p.date}&to=${p.date}`, { headers: p.auth })).json()).toHaveLength(0)

  await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()
  const client = dialog.getByRole('listitem', { name: 'Fernanda Vieira' })
  await client.getByRole('button', { name: 'Remarcar' }).click()
  await client.getByRole('group', { name: 'Horários livres' }).getByRole('button', { name: '10:00' }).click()
  await client.getByRole('button', { name: 'Usar este horário' }).click()
  await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()

  const result = dialog.getByRole('listitem', { name: 'Fernanda Vieira' })
  await expect(result).toContainText('remarcado de')
  await expect(result).toContainText('às 10:00')
  await expect(result).toContainText('Não conseguimos avisar automaticamente')
  await expect(result).not.toContainText('avisado')
  await expect(result.getByRole('link', { name: /Avisar remarcação pelo WhatsApp/ })).toHaveAttribute('href', /wa\.me\/5511988887777\?text=/)
  expect(await p.now()).toMatchObject({ time: '10:00', status: 'confirmed' })
  expect(await (await request.get(`/api/blocks?from=${p.date}&to=${p.date}`, { headers: p.auth })).json()).toHaveLength(1)
  await dialog.getByRole('button', { name: 'Concluir' }).click()
  await expect(dialog).toBeHidden()
  await expect(gridAppointment(page, '10:00', 'Fernanda Vieira')).toBeVisible()
})
